# A Sphinx project with broken references planted, for
# scripts/sphinx-broken.sh: sphinx-build -n and `uriscan check` must
# report the same ones.
project = "broken"
extensions = []
exclude_patterns = ["parts"]
