"""netlify.toml's headers: scripts/serve.py's reading of them, and the policy they set."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from helpers import script_module

ROOT = Path(__file__).resolve().parent.parent


serve = script_module("serve")
build_site = script_module("build_site")
CONFIG = tomllib.loads((ROOT / "netlify.toml").read_text())
RULES = serve.parse_header_rules(CONFIG)


def rules(toml: str) -> list:
    return serve.parse_header_rules(tomllib.loads(toml))


# --------------------------------------------------------------------------- the parser
@pytest.mark.parametrize(
    ("pattern", "matches", "misses"),
    [
        ("/*", ["/", "/index.html", "/a/b/c.js"], []),
        ("/", ["/"], ["/index.html", "/a/"]),
        ("/index.html", ["/index.html", "/INDEX.html", "/index.html/"], ["/x/index.html"]),
        # "/static/*" also matches "/statics": Netlify's parser makes the slash before a lone
        # "*" optional, and so does ours.
        ("/static/*", ["/static", "/static/", "/static/a/b.css", "/statics"], ["/x/static/a"]),
        ("/*.wasm", ["/a.wasm", "/static/vendor/pyodide/pyodide.asm.wasm"], ["/a.wasm.map"]),
        (
            "/static/vendor/pyscript/*-*.js",
            ["/static/vendor/pyscript/core-C9KDLldu.js", "/static/vendor/pyscript/a-b-c.js"],
            ["/static/vendor/pyscript/core.js", "/static/vendor/pyscript/core-x.css"],
        ),
        ("/workbox-*.js", ["/workbox-0bb07689.js"], ["/sw.js", "/x/workbox-1.js"]),
        ("/users/:id/edit", ["/users/7/edit"], ["/users/7/8/edit", "/users//edit"]),
        ("/a.b", ["/a.b"], ["/aXb"]),  # literal dots stay literal
    ],
)
def test_for_patterns_match_as_netlify_does(pattern, matches, misses) -> None:
    regex = serve.for_regex(pattern)
    for path in matches:
        assert regex.match(path), (pattern, path)
    for path in misses:
        assert not regex.match(path), (pattern, path)


def test_values_are_normalized_as_netlify_does() -> None:
    [rule] = rules(
        """
        [[headers]]
          for = "/*"
          [headers.values]
            Cache-Control = '''
              max-age=0,
              no-cache ,must-revalidate'''
            Permissions-Policy = ["camera=()", " usb=() "]
            Long = \"\"\"\\
              a; \\
              b\\
              \"\"\"
        """
    )
    assert rule.values == {
        "Cache-Control": "max-age=0, no-cache, must-revalidate",
        "Permissions-Policy": "camera=(), usb=()",
        "Long": "a; b",
    }


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[[headers]]\nvalues = {A = "b"}', "'for' must be a path"),
        ('[[headers]]\nfor = "x"\nvalues = {A = "b"}', "'for' must be a path"),
        ('[[headers]]\nfor = "/"\nvalues = "A: b"', "'values' must be a table"),
        ('[[headers]]\nfor = "/"\nvalues = {A = 1}', "must be a string"),
        ('[[headers]]\nfor = "/"\nvalues = {"A b" = "c"}', "bad header name"),
        ('[[headers]]\nfor = "/"\nvalues = {A = "b", a = "c"}', "set twice"),
        ('[[headers]]\nfor = "/"\nvalues = {A = "b\\nInjected: yes"}', "control character"),
        ('headers = "nope"', "array of tables"),
    ],
)
def test_bad_rules_are_refused(toml: str, message: str) -> None:
    with pytest.raises(serve.HeaderConfigError, match=re.escape(message)):
        rules(toml)


def test_matching_rules_combine_and_may_not_both_set_a_header() -> None:
    two = rules(
        """
        [[headers]]
        for = "/*"
        values = {X-A = "1"}
        [[headers]]
        for = "/*.js"
        values = {X-B = "2"}
        [[headers]]
        for = "/static/*"
        values = {x-a = "3"}
        """
    )
    assert serve.headers_for(two, "/app.js?v=1") == {"X-A": "1", "X-B": "2"}
    assert serve.headers_for(two, "/a%20b.js") == {"X-A": "1", "X-B": "2"}
    with pytest.raises(serve.HeaderConfigError, match="X-A|x-a"):
        serve.headers_for(two, "/static/app.js")


# --------------------------------------------------------------------------- the site's config
def published_paths() -> list[str]:
    """URL paths of the files `make site` publishes (sw.js and Workbox's runtime included)."""
    paths = {"/", "/sw.js", "/workbox-0bb07689.js"}
    paths |= {"/" + p for p in build_site.site_files()}
    paths |= {"/" + build_site.PAGE_CSS, "/" + build_site.PAGE_SCRIPT}
    paths |= {
        "/" + str(p.relative_to(ROOT))
        for p in (ROOT / "static").rglob("*")
        if p.is_file() and not p.name.startswith(".")
    }
    return sorted(paths)


def test_build_and_publish_settings() -> None:
    assert CONFIG["build"]["command"] == "make site"
    assert CONFIG["build"]["publish"] == "dist"
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^site: .*vendor", makefile, re.M), "make site runs the setup step first"
    assert "scripts/build_site.py dist" in makefile


def test_every_published_file_gets_one_value_per_header() -> None:
    for path in published_paths():
        headers = serve.headers_for(RULES, path)  # raises on a conflict
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert "Content-Security-Policy" in headers, path


def test_types_and_caching() -> None:
    def get(path: str, name: str) -> str | None:
        return serve.headers_for(RULES, path).get(name)

    assert get("/static/vendor/pyodide/pyodide.asm.wasm", "Content-Type") == "application/wasm"
    assert get("/static/manifest.webmanifest", "Content-Type") == "application/manifest+json"
    assert get("/static/vendor/pyodide/pyodide.mjs", "Content-Type").startswith("text/javascript")
    for path in ("/", "/index.html", "/sw.js", "/pyscript.toml", "/static/manifest.webmanifest"):
        assert get(path, "Cache-Control") == "no-cache", path
    # Immutable only where the name carries a hash of the content.
    hashed = re.compile(r"/(workbox-[0-9a-f]{8}|static/vendor/pyscript/[\w.-]+-[\w-]{8})\.js$")
    immutable = [p for p in published_paths() if "immutable" in (get(p, "Cache-Control") or "")]
    assert immutable, "the hashed chunks are cached for good"
    for path in immutable:
        assert hashed.search(path), f"{path} is immutable but its name does not change"
    for path in published_paths():
        if hashed.search(path):
            assert path in immutable, path


def csp() -> dict[str, list[str]]:
    value = serve.headers_for(RULES, "/index.html")["Content-Security-Policy"]
    directives = [d.split() for d in value.split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def test_content_security_policy_allows_the_origin_and_what_the_runtime_needs() -> None:
    policy = csp()
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"]
    for name in ("style-src", "img-src", "connect-src", "manifest-src", "worker-src"):
        assert policy[name] == ["'self'"], name
    for name in ("base-uri", "form-action", "frame-ancestors"):
        assert policy[name] == ["'none'"], name
    # Nothing from elsewhere, nothing inline: not even a style attribute.
    sources = [s for values in policy.values() for s in values]
    assert not [s for s in sources if not s.startswith("'")], "hosts or schemes in the policy"
    assert "'unsafe-inline'" not in sources
    assert "style-src-attr" not in policy


def test_every_policy_directive_is_explained() -> None:
    comments = "\n".join(
        line.strip() for line in (ROOT / "netlify.toml").read_text().splitlines()
        if line.strip().startswith("#")
    )
    for directive, sources in csp().items():
        assert directive in comments, f"{directive} has no comment in netlify.toml"
        for source in sources:
            assert source in comments, f"{directive} {source} has no comment"


def test_index_html_runs_no_inline_script() -> None:
    html = (ROOT / "index.html").read_text()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, f"inline script: {tag}"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler attribute"
    assert not re.search(r"<style\b", html), "inline <style> element"
