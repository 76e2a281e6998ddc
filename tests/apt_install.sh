# Sourced by the install scripts beside it: install Debian's or Ubuntu's packages (with the
# options given) as root, or through sudo. The package lists are read again only when there
# are none yet, or when an install fails on the lists there are (they may be out of date):
# the three scripts, run one after the other by tests/setup.sh, update them once.
apt_install() {
    local as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        as_root=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null; then
        "${as_root[@]}" apt-get update -qq
    fi
    if ! "${as_root[@]}" apt-get install -y -qq "$@" >/dev/null; then
        "${as_root[@]}" apt-get update -qq
        "${as_root[@]}" apt-get install -y -qq "$@" >/dev/null
    fi
}
