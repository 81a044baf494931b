// Installing Nestor as an app: the "Install" control among the less-used controls of #controls
// (the icon group .more), which index.html holds hidden, and its how-to (#install-dialog).
//
// - Where the browser offers installation (Chromium's `beforeinstallprompt`), the event is kept
//   (preventDefault: no mini-infobar of the browser's own), the control is shown, and a tap on
//   it calls the event's prompt(). The event is good for one prompt: the control hides after
//   it, and comes back only if the browser offers installation again (a new event).
// - Where it does not, but the player can install by hand (Safari on iPhone and iPad: Share,
//   then Add to Home Screen), the control opens the how-to dialog instead.
// - Nowhere else, and never once installed: when the page runs as the installed app
//   (`display-mode: standalone`, or Safari's navigator.standalone) or the browser reports
//   `appinstalled`, the control stays hidden.
//
// The state is on <html data-install="prompt|manual">, absent when there is nothing to offer
// (e2e/test_install_faces.py reads it). A classic deferred script, not a module, so it listens
// before the page's load: Chromium may fire beforeinstallprompt that early, long before Python
// has booted. The words are the page's (data-text, nestor_web/view/texts.py), which Python
// sets in the player's language like every other.
(() => {
  const root = document.documentElement;
  let offered = null; // the kept beforeinstallprompt event, until prompt() is called

  const standalone = () =>
    window.matchMedia("(display-mode: standalone)").matches ||
    window.matchMedia("(display-mode: fullscreen)").matches ||
    window.navigator.standalone === true;

  // Safari on an iPhone or iPad, where Share, then Add to Home Screen installs the page. iPadOS
  // calls itself a Mac: a Mac with a touch screen is an iPad. Chrome, Firefox, Edge and Opera
  // on iOS say so in their user agent (CriOS, FxiOS, EdgiOS, OPiOS), and apps' built-in
  // browsers lack "Safari": they get no how-to, whose steps are Safari's.
  const iosSafari = () => {
    const ua = navigator.userAgent;
    const ios = /iPhone|iPad|iPod/.test(ua) ||
      (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
    return ios && /Safari\//.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(ua);
  };

  const state = () => {
    if (standalone()) return null;
    if (offered) return "prompt";
    return iosSafari() ? "manual" : null;
  };

  const update = () => {
    const now = state();
    if (now) root.dataset.install = now;
    else delete root.dataset.install;
    const control = document.querySelector("button[data-install]");
    if (control) control.hidden = !now;
  };

  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offered = event;
    update();
  });
  window.addEventListener("appinstalled", () => {
    offered = null;
    update();
  });
  for (const mode of ["standalone", "fullscreen"]) {
    window.matchMedia(`(display-mode: ${mode})`).addEventListener?.("change", update);
  }

  document.addEventListener("click", (event) => {
    const control = event.target.closest?.("button[data-install]");
    if (!control) return;
    if (offered) {
      const prompting = offered;
      offered = null; // one prompt per event
      update();
      Promise.resolve(prompting.prompt()).catch((error) =>
        console.warn("Nestor: the browser refused its install prompt:", error?.message));
      return;
    }
    const dialog = document.getElementById("install-dialog");
    if (dialog && !dialog.open) dialog.showModal();
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();
