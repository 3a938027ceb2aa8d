# Added to the oracle's conf.py for the cases of this directory.
VERSION = "1.0"
myst_enable_extensions = [
    "colon_fence",
    "linkify",
    "substitution",
    "attrs_inline",
    "html_image",
]
myst_substitutions = {
    "site": "[the site](https://x.example/site)",
    "plain": "no link here",
    "bare": "www.example.org",
    "version": VERSION,
}
