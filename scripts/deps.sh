#!/bin/sh
# Installs what avcdoctor needs to build and test on Debian 12 (run as root).
# Usage: scripts/deps.sh [build|test|cockpit]
set -eu

build_pkgs="build-essential cmake pkg-config gettext
	libauparse-dev libaudit-dev libselinux1-dev libsepol-dev libpcre2-dev
	libglib2.0-dev libjson-c-dev libsqlite3-dev libcap-ng-dev libnotify-dev libgtk-3-dev
	libpolkit-gobject-1-dev
	zlib1g-dev liblzma-dev libzstd-dev"
# the policy to analyse against (and its boolean descriptions, in -dev);
# the peers compared with in tests; checkpolicy compiles the unit tests' own policies
run_pkgs="selinux-policy-default selinux-policy-dev"
test_pkgs="libcmocka-dev policycoreutils-python-utils python3 setools
	checkpolicy semodule-utils auditd audispd-plugins dbus dbus-bin sqlite3
	xvfb xauth x11-utils dunst imagemagick
	xdotool at-spi2-core python3-gi gir1.2-atspi-2.0 gir1.2-gtk-3.0
	clang libclang-rt-14-dev
	groff-base man-db bash-completion debhelper dpkg-dev fakeroot
	python3-dbusmock polkitd"

# Cockpit's SELinux page in a browser (tests/cockpit-selinux.sh; the page
# itself comes from the source package: scripts/cockpit-selinux.sh)
cockpit_pkgs="cockpit-ws cockpit-bridge chromium-headless-shell python3-websocket xz-utils"

want="$build_pkgs $run_pkgs"
[ "${1:-build}" = test ] && want="$want $test_pkgs"
[ "${1:-build}" = cockpit ] && want="$want $test_pkgs $cockpit_pkgs"

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
