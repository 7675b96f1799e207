#!/bin/sh
# Fetches Cockpit's SELinux page (dist/selinux), which Debian 12 builds into
# no binary package, from the source package of the cockpit-ws that apt
# installs (287 in bookworm), into DIR/selinux: the page that
# tests/cockpit-selinux.sh loads unchanged (ctest finds it in BUILD/cockpit).
# apt runs with a private source list, list folder and cache under DIR, so
# the system's apt configuration is left alone (bookworm has no deb-src line).
# Usage: scripts/cockpit-selinux.sh DIR [VERSION]   (needs network, xz-utils)
set -eu
dir=${1:?usage: $0 DIR [VERSION]}
version=${2:-$(apt-cache policy cockpit-ws | sed -n 's/^ *Candidate: //p')}
case "$version" in ''|'(none)') echo "$0: no cockpit-ws version known to apt" >&2; exit 1;; esac
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/src"
# apt reads a relative Dir::Etc::SourceList under /etc/apt: absolute paths only
dir=$(cd "$dir" && pwd)
. /etc/os-release
cat >"$dir/apt/sources.list" <<EOS
deb-src http://deb.debian.org/debian $VERSION_CODENAME main
deb-src http://deb.debian.org/debian $VERSION_CODENAME-backports main
EOS
apt_opts="-o Dir::Etc::SourceList=$dir/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists=$dir/apt/lists -o Dir::Cache=$dir/apt/cache -o Debug::NoLocking=1
	-o APT::Sandbox::User=root"
# shellcheck disable=SC2086
apt-get -q $apt_opts update
# shellcheck disable=SC2086
(cd "$dir/src" && apt-get -q $apt_opts source --download-only "cockpit=$version")
orig=$(ls "$dir"/src/cockpit_*.orig.tar.xz | head -1)
top=$(tar -tJf "$orig" | head -1 | cut -d/ -f1)
rm -rf "$dir/selinux" "$dir/src/$top"
tar -xJf "$orig" -C "$dir/src" "$top/dist/selinux"
mv "$dir/src/$top/dist/selinux" "$dir/selinux"
test -r "$dir/selinux/setroubleshoot.html"
echo "Cockpit $version's SELinux page in $dir/selinux"
