"""The words of installing Nestor as an app: the "Install" control and its how-to
(static/js/install.js shows them), ``data-text`` words of the page shell like
:data:`~nestor_web.view.texts.TEXTS`.
"""

from __future__ import annotations

from .i18n import N_

INSTALL_TEXTS: dict[str, str] = {
    "install": N_("Install"),
    "install-title": N_("Install Nestor"),
    # Safari's own names of its button and menu item, as an iPhone shows them in the language.
    "install-how": N_(
        "In Safari, tap the Share button (the square with an arrow pointing up), then "
        "“Add to Home Screen”."
    ),
    "install-then": N_(
        "Nestor then opens from your home screen like an app, full screen, and plays offline."
    ),
}
"""Text of each install ``data-text`` element, by id."""
