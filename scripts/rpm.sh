#!/bin/sh
# Builds the source RPM and the binary RPMs of avcdoctor.spec into OUTDIR,
# on Fedora/RHEL or on any machine with rpmbuild (Debian's "rpm" package).
# Usage: scripts/rpm.sh [--nocheck] [--nodebuginfo] OUTDIR
#   --nocheck       leave out %check (the unit tests)
#   --nodebuginfo   no -debuginfo/-debugsource packages
# The source tarball is the files git knows (none of the developers' build
# folders), or the tree without build*/, obj-*/ and .git when there is no git.
# Where rpm's database does not know the BuildRequires (a machine that does
# not install its packages with rpm), rpmbuild runs with --nodeps, and the
# macros that Fedora's rpm has and this one lacks (%cmake, %_unitdir,
# %systemd_post, ...) are defined as Fedora defines them.  rpmlint, when
# installed, checks the spec and the packages: its report is OUTDIR/rpmlint.txt,
# and errors make the script fail.
# Exit: 0 built (and no rpmlint error), 1 failed, 2 bad usage.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
check=yes
debuginfo=yes
while [ $# -gt 0 ]; do
	case $1 in
		--nocheck) check=no ;;
		--nodebuginfo) debuginfo=no ;;
		-h | --help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
		-*) echo "rpm.sh: unknown option $1" >&2; exit 2 ;;
		*) break ;;
	esac
	shift
done
[ $# = 1 ] || { echo "usage: scripts/rpm.sh [--nocheck] [--nodebuginfo] OUTDIR" >&2; exit 2; }
command -v rpmbuild >/dev/null ||
	{ echo "rpm.sh: no rpmbuild (Debian: apt-get install rpm; Fedora: dnf install rpm-build)" >&2; exit 1; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
spec="$top/avcdoctor.spec"

# the spec's version is the project's
version=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")
project=$(sed -n 's/^project(avcdoctor VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
if [ "$version" != "$project" ]; then
	echo "rpm.sh: avcdoctor.spec says Version $version, CMakeLists.txt $project" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/avcdoctor-rpm.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/SOURCES" "$work/SPECS" "$work/stage/avcdoctor-$version"

# ---- the source tarball
stage="$work/stage/avcdoctor-$version"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# tracked and new files as they are now (a deleted file is left out)
	(cd "$top" && git ls-files -z -c -o --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -x -C "$stage"
else
	tar -C "$top" --exclude='./build*' --exclude='./obj-*' --exclude=./.git -cf - . |
		tar -x -C "$stage"
fi
tar -C "$work/stage" --owner=0 --group=0 --sort=name -czf "$work/SOURCES/avcdoctor-$version.tar.gz" \
	"avcdoctor-$version"
cp "$spec" "$work/SPECS/"

# ---- what this rpm lacks of Fedora's macros
set -- --define "_topdir $work"
# no rpm-installed build dependencies here: rpm's database cannot check them
if ! rpm -q --quiet rpm 2>/dev/null; then
	set -- "$@" --nodeps
	echo "rpm.sh: rpm's database does not hold this system's packages: --nodeps" >&2
fi
macros="$work/macros.fedora"
: >"$macros"
missing() { [ -z "$(rpm --eval "%{?$1:1}")" ]; }
missing _unitdir && echo '%_unitdir /usr/lib/systemd/system' >>"$macros"
missing _sysusersdir && echo '%_sysusersdir /usr/lib/sysusers.d' >>"$macros"
missing _vpath_builddir && echo '%_vpath_builddir %{_vendor}-%{_target_os}-build' >>"$macros"
# upstream rpm's default for /var/lib is still /usr/com (Debian's rpm keeps it)
[ "$(rpm --eval '%{_sharedstatedir}')" = /var/lib ] || echo '%_sharedstatedir /var/lib' >>"$macros"
# Debian's brp-compress needs bash (read -d) but says /bin/sh: the man pages
# would stay uncompressed
if grep -q 'read -r -d' /usr/lib/rpm/brp-compress 2>/dev/null &&
	head -1 /usr/lib/rpm/brp-compress | grep -q '/bin/sh' && [ "$(readlink -f /bin/sh)" != /bin/bash ]; then
	echo '%__brp_compress /bin/bash /usr/lib/rpm/brp-compress %{?_prefix}' >>"$macros"
fi
if missing cmake; then
	# cmake-rpm-macros' %cmake, %cmake_build, %cmake_install and %ctest
	cat >>"$macros" <<'EOF'
%cmake \
  CFLAGS="${CFLAGS:-%{optflags}}"; export CFLAGS; \
  LDFLAGS="${LDFLAGS:-%{?build_ldflags}}"; export LDFLAGS; \
  /usr/bin/cmake -S . -B "%{_vpath_builddir}" \\\
	-DCMAKE_INSTALL_PREFIX:PATH=%{_prefix} \\\
	-DCMAKE_INSTALL_BINDIR:PATH=%{_bindir} \\\
	-DCMAKE_INSTALL_SBINDIR:PATH=%{_sbindir} \\\
	-DCMAKE_INSTALL_LIBEXECDIR:PATH=%{_libexecdir} \\\
	-DCMAKE_INSTALL_LIBDIR:PATH=%{_lib} \\\
	-DCMAKE_INSTALL_DATADIR:PATH=%{_datadir} \\\
	-DCMAKE_INSTALL_MANDIR:PATH=%{_mandir} \\\
	-DCMAKE_INSTALL_SYSCONFDIR:PATH=%{_sysconfdir} \\\
	-DCMAKE_INSTALL_LOCALSTATEDIR:PATH=%{_localstatedir} \\\
	-DCMAKE_INSTALL_DO_STRIP:BOOL=OFF
%cmake_build /usr/bin/cmake --build "%{_vpath_builddir}" %{?_smp_mflags} --verbose
%cmake_install DESTDIR="%{buildroot}" /usr/bin/cmake --install "%{_vpath_builddir}"
%ctest(-) \
  cd "%{_vpath_builddir}" \
  /usr/bin/ctest --output-on-failure --force-new-ctest-process %{?_smp_mflags} %{**} \
  cd -
EOF
fi
for m in systemd_post systemd_preun systemd_postun; do
	# systemd-rpm-macros' scriptlets for a unit that is never enabled: nothing to do
	missing $m && printf '%%%s() %%{nil}\n' "$m" >>"$macros"
done
if [ -s "$macros" ]; then
	set -- "$@" --load "$macros"
	echo "rpm.sh: Fedora's macros defined here: $(sed -n 's/^%\([a-z_]*\).*/\1/p' "$macros" | tr '\n' ' ')" >&2
fi
# --without check: the tests are not even built
[ "$check" = yes ] || set -- "$@" --nocheck --without check
[ "$debuginfo" = yes ] || set -- "$@" --define 'debug_package %{nil}'

# ---- the source RPM, then the binary RPMs built from it
rpmbuild "$@" -bs "$work/SPECS/avcdoctor.spec" >"$work/srpm.log" 2>&1 ||
	{ cat "$work/srpm.log" >&2; echo "rpm.sh: the source RPM failed" >&2; exit 1; }
srpm=$(ls "$work"/SRPMS/avcdoctor-*.src.rpm)
echo "rpm.sh: $(basename "$srpm")" >&2
if ! rpmbuild "$@" --define "_smp_mflags -j$(nproc)" --rebuild "$srpm" >"$out/rpmbuild.log" 2>&1; then
	tail -40 "$out/rpmbuild.log" >&2
	echo "rpm.sh: rpmbuild --rebuild failed (the whole log: $out/rpmbuild.log)" >&2
	exit 1
fi
cp "$srpm" "$out/"
find "$work/RPMS" -name '*.rpm' -exec cp {} "$out/" \;
ls "$out"/*.rpm | sed 's|.*/|rpm.sh: |' >&2

# ---- rpmlint: the spec, the source and binary packages, with the project's
# filters (avcdoctor.rpmlintrc) and, where rpmlint lacks Fedora's
# configuration (Debian's has openSUSE's defaults), Fedora's settings
if command -v rpmlint >/dev/null; then
	status=0
	set -- -r "$top/avcdoctor.rpmlintrc" --ignore-unused-rpmlintrc
	if ! ls /etc/xdg/rpmlint/fedora.toml /usr/share/rpmlint/fedora.toml >/dev/null 2>&1; then
		cat >"$work/fedora.toml" <<'EOF'
# Fedora's man pages are gzipped; its packages are signed by its build
# system, never here; it forbids the Packager tag and no longer uses Group;
# its licences are SPDX expressions that older rpmlints do not know
CompressExtension = "gz"
Filters = ['no-signature', 'no-packager-tag', 'no-group-tag', 'invalid-license']
EOF
		set -- "$@" -c "$work/fedora.toml"
	fi
	rpmlint "$@" "$spec" "$out"/*.rpm >"$out/rpmlint.txt" 2>&1 || status=$?
	tail -1 "$out/rpmlint.txt" | sed 's/^/rpm.sh: rpmlint: /' >&2
	if grep -q ': E: ' "$out/rpmlint.txt"; then
		grep ': E: ' "$out/rpmlint.txt" >&2
		echo "rpm.sh: rpmlint found errors (exit $status; $out/rpmlint.txt)" >&2
		exit 1
	fi
else
	echo "rpm.sh: no rpmlint here (Debian and Fedora: the rpmlint package)" >&2
fi
