# Sourced by the install scripts beside it: install Debian's or Ubuntu's packages (with the
# options given) as root, or through sudo.
apt_install() {
    local as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        as_root=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" apt-get install -y -qq "$@" >/dev/null
}
