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
	groff-base man-db bash-completion debhelper dpkg-dev fakeroot rpm rpmlint
	python3-dbusmock polkitd locales"
# the locales the test suite also runs under: a decimal comma, other plurals,
# accented words (tests/locales.sh)
test_locales="de_DE.UTF-8 fr_FR.UTF-8"

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
# the test locales not generated yet (locale -a spells them de_DE.utf8)
missing_locales=""
if [ "${1:-build}" != build ]; then
	for l in $test_locales; do
		locale -a 2>/dev/null | grep -qx "${l%.UTF-8}.utf8" ||
			missing_locales="$missing_locales $l"
	done
fi
[ -z "$missing$missing_locales" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing, locales:$missing_locales" \
		"(run as root to install them)" >&2
	exit 1
fi
if [ -n "$missing" ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi
# enabled in /etc/locale.gen, so that an upgrade of "locales" keeps them
for l in $missing_locales; do
	if grep -q "^# *$l UTF-8" /etc/locale.gen; then
		sed -i "s/^# *\($l UTF-8\)/\1/" /etc/locale.gen
	elif ! grep -q "^$l UTF-8" /etc/locale.gen; then
		echo "$l UTF-8" >>/etc/locale.gen
	fi
done
[ -z "$missing_locales" ] || locale-gen
