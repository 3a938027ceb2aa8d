# Sourced by the oracle scripts, benches and tests/sites/conformance.sh,
# which need Python packages.
#
# venv_with DIR MODULES PACKAGE...: a pip venv at DIR holding PACKAGE...,
# made (or completed) only when `import MODULES` (comma-separated) fails
# in it, so the network is used the first time only.
venv_with() {
  local dir=$1 modules=$2
  shift 2
  if [ ! -x "$dir/bin/python" ] || ! "$dir/bin/python" -c "import $modules" 2>/dev/null; then
    python3 -m venv "$dir"
    "$dir/bin/pip" install -q "$@"
  fi
}
