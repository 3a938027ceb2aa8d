# Sourced by the bench scripts that run lychee: sets `lychee` to its
# binary, on PATH or where `cargo install lychee --locked` puts it, or
# to nothing when there is none (each script says whether it needs it).
lychee=$(command -v lychee || true)
if [[ -z $lychee && -x $HOME/.cargo/bin/lychee ]]; then
  lychee=$HOME/.cargo/bin/lychee
fi
