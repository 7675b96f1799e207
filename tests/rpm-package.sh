#!/bin/bash
# The RPM packages, built here: scripts/rpm.sh --nocheck --nodebuginfo builds
# the source RPM and the binary RPMs of avcdoctor.spec with rpmbuild (on
# Debian with --nodeps and Fedora's macros defined by the script); the RPMs
# hold avcdoctor, the dispatcher and its auditd plugin file, the D-Bus and
# polkit files, the man pages, and sealert in a package of its own; their
# scriptlets and conflicts are as Fedora needs them; rpmlint finds no error
# (rpm.sh fails on one), and each package's files are those of the .deb of
# the same name, but for these distribution differences:
#  - systemd units: /lib/systemd/system on Debian 12, /usr/lib/systemd/system
#    on Fedora;
#  - /usr/share/doc: copyright and changelogs are Debian's; the RPM has the
#    README and SECURITY.md uncompressed; /usr/share/lintian is Debian's;
#  - the group avcdoctor: a sysusers.d file in the RPM (Debian's postinst
#    runs addgroup), and the RPM owns the store folder /var/lib/avcdoctor
#    (Debian's dispatcher creates it);
#  - rpm's /usr/lib/.build-id links to the programs (Debian has them in its
#    -dbgsym packages);
#  - directories are not compared (a .deb lists every one, an RPM those it
#    owns).
# The .deb's lists are those that tests/deb-package.sh wrote into
# $AD_BUILD_DIR/packages/deb (ctest runs it first: a fixture), stamped with
# the source they are of; without them, or of another source, the
# comparison is skipped and said so.
# The RPMs are then installed together into a scratch root, checked with
# rpm -V, run and erased.
# Exit 77 (skipped) without rpmbuild.
. "$AD_SOURCE_DIR/tests/lib.sh"
if ! command -v rpmbuild >/dev/null; then
	echo "skipped: no rpmbuild (scripts/deps.sh test installs rpm and rpmlint)" >&2
	exit 77
fi
require_policy

# the source as scripts/rpm.sh packs it (deb-package.sh stamps its lists the same way)
stamp=$(cd "$AD_SOURCE_DIR" && git ls-files -z -c -o --exclude-standard 2>/dev/null |
	xargs -0 -r sha1sum 2>/dev/null | LC_ALL=C sort -k2 | sha1sum | cut -d' ' -f1)
out="$TMP/rpms"
start=$(date +%s)
if nice "$AD_SOURCE_DIR/scripts/rpm.sh" --nocheck --nodebuginfo "$out" >"$TMP/rpm.log" 2>&1; then
	pass "scripts/rpm.sh in $(($(date +%s) - start)) s"
else
	fail "scripts/rpm.sh failed:"; tail -30 "$TMP/rpm.log" >&2
	finish
fi
sed 's/^/    /' "$TMP/rpm.log"
version=$(sed -n 's/^Version:[[:space:]]*//p' "$AD_SOURCE_DIR/avcdoctor.spec")
pkgs="avcdoctor avcdoctor-desktop avcdoctor-fixit avcdoctor-sealert"
ls "$out"/avcdoctor-"$version"-*.src.rpm >/dev/null 2>&1 && pass "the source RPM" ||
	fail "no source RPM in $(ls "$out")"
declare -A rpm
for p in $pkgs; do
	rpm[$p]=$(ls "$out/$p-$version"-*.rpm 2>/dev/null | grep -v '\.src\.rpm$' | head -1)
	[ -n "${rpm[$p]}" ] && pass "package $p: $(basename "${rpm[$p]}")" || fail "no package $p"
done
[ "$failures" = 0 ] || finish
[ "$(ls "$out"/*.rpm | wc -l)" = 5 ] && pass "five RPMs, no others" ||
	fail "RPMs: $(ls "$out" | tr '\n' ' ')"

# ---- contents: "MODE PATH" of files, links and the directories it owns
for p in $pkgs; do
	rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "${rpm[$p]}" 2>/dev/null |
		sort -k2 >"$TMP/$p.rpmlist"
done
has() { # has PACKAGE PATH [MODE]
	local line
	line=$(grep -E " $2\$" "$TMP/$1.rpmlist")
	if [ -z "$line" ]; then fail "$1 lacks $2"; return; fi
	if [ -n "${3:-}" ] && [ "${line%% *}" != "$3" ]; then
		fail "$1: $2 is ${line%% *}, wanted $3"; return
	fi
	pass "$1 has $2${3:+ ($3)}"
}
has avcdoctor /usr/bin/avcdoctor -rwxr-xr-x
has avcdoctor /usr/sbin/avcdoctor-dispatch -rwxr-xr-x
has avcdoctor /etc/audit/plugins.d/avcdoctor-dispatch.conf -rw-r-----
has avcdoctor /etc/avcdoctor/avcdoctor.conf
has avcdoctor /usr/share/dbus-1/system.d/org.avcdoctor.Daemon.conf
has avcdoctor /usr/share/dbus-1/system.d/org.fedoraproject.Setroubleshootd.conf
has avcdoctor /usr/lib/avcdoctor/compat/audit2allow lrwxrwxrwx
has avcdoctor /usr/share/man/man1/avcdoctor.1.gz
has avcdoctor /usr/share/man/man8/avcdoctor-dispatch.8.gz
has avcdoctor /usr/lib/sysusers.d/avcdoctor.conf
has avcdoctor /var/lib/avcdoctor drwx------
has avcdoctor-fixit /usr/libexec/avcdoctor-fixit -rwxr-xr-x
has avcdoctor-fixit /usr/lib/systemd/system/avcdoctor-fixit.service
has avcdoctor-fixit /usr/share/dbus-1/system-services/org.avcdoctor.Fixit1.service
has avcdoctor-fixit /usr/share/polkit-1/actions/org.avcdoctor.fixit.policy
has avcdoctor-fixit /usr/share/man/man8/avcdoctor-fixit.8.gz
has avcdoctor-desktop /usr/bin/avcdoctor-notify -rwxr-xr-x
has avcdoctor-sealert /usr/bin/sealert lrwxrwxrwx
has avcdoctor-sealert /usr/share/man/man1/sealert.1.gz
[ "$(rpm -qp --qf '[%{FILELINKTOS}]' "${rpm[avcdoctor-sealert]}")" = avcdoctor ] &&
	pass "sealert links to avcdoctor" || fail "sealert links elsewhere"
for l in $(grep -v '^#' "$AD_SOURCE_DIR/po/LINGUAS"); do
	has avcdoctor "/usr/share/locale/$l/LC_MESSAGES/avcdoctor.mo"
done
rpm -qp --qf '[%{FILEFLAGS:fflags} %{FILENAMES}\n]' "${rpm[avcdoctor]}" >"$TMP/flags"
grep -q '^cn* /etc/audit/plugins.d/avcdoctor-dispatch.conf$' "$TMP/flags" &&
	grep -q '^cn* /etc/avcdoctor/avcdoctor.conf$' "$TMP/flags" &&
	pass "the files in /etc are %config(noreplace)" || fail "config flags: $(grep /etc "$TMP/flags")"
rpm -qp --qf '[%{FILELANGS} %{FILENAMES}\n]' "${rpm[avcdoctor]}" |
	grep -q '^de /usr/share/locale/de/LC_MESSAGES/avcdoctor.mo$' &&
	pass "the catalogs are %lang (%find_lang)" || fail "the catalogs are not marked %lang"

# ---- dependencies, conflicts, scriptlets
for p in avcdoctor avcdoctor-fixit avcdoctor-sealert; do
	rpm -qp --conflicts "${rpm[$p]}" 2>/dev/null | grep -qx 'setroubleshoot-server' &&
		pass "$p conflicts with setroubleshoot-server" || fail "$p: no Conflicts: setroubleshoot-server"
done
for p in avcdoctor-desktop avcdoctor-fixit avcdoctor-sealert; do
	rpm -qp --requires "${rpm[$p]}" 2>/dev/null | grep -q "^avcdoctor\(([^)]*)\)\{0,1\} = $version-" &&
		pass "$p requires avcdoctor of its version" || fail "$p does not require avcdoctor = $version"
done
rpm -qp --requires "${rpm[avcdoctor-fixit]}" 2>/dev/null | grep -qx polkit &&
	pass "avcdoctor-fixit requires polkit" || fail "avcdoctor-fixit does not require polkit"
rpm -qp --requires "${rpm[avcdoctor]}" 2>/dev/null | grep -q '^libc\.so\.6' &&
	pass "automatic library dependencies" || fail "no libc.so.6 dependency"
rpm -qp --scripts "${rpm[avcdoctor]}" >"$TMP/scripts" 2>/dev/null
for want in 'preinstall' 'groupadd -r avcdoctor' 'postinstall' 'signal=HUP auditd.service' \
	'reload dbus.service' 'postuninstall'; do
	grep -q -- "$want" "$TMP/scripts" && pass "avcdoctor's scriptlets: $want" ||
		fail "avcdoctor's scriptlets lack '$want'"
done
for s in pre post postun; do
	sed -n "/^${s}[a-z]* scriptlet/,/^[a-z]* scriptlet/p" "$TMP/scripts" |
		sed '1d;/scriptlet/d' >"$TMP/$s.sh"
	sh -n "$TMP/$s.sh" 2>"$TMP/sh.err" && pass "the $s scriptlet is valid sh" ||
		fail "the $s scriptlet: $(cat "$TMP/sh.err")"
done
rpm -qp --scripts "${rpm[avcdoctor-fixit]}" 2>/dev/null | grep -q 'reload dbus.service' &&
	pass "avcdoctor-fixit reloads the bus policy" || fail "avcdoctor-fixit does not reload the bus"
if [ -f "$out/rpmlint.txt" ]; then
	pass "rpmlint: $(tail -1 "$out/rpmlint.txt")"
else
	echo "note: no rpmlint here"
fi

# ---- installed together into a scratch root (--nodeps --noscripts: its
# database knows nothing of this system): no file in two packages, the
# files as rpm -V expects them, the programs run, and erased again
root="$TMP/root"
mkdir -p "$root"
if rpm --root "$root" --initdb 2>"$TMP/rpmdb.err" &&
	rpm --root "$root" -i --nodeps --noscripts $(for p in $pkgs; do echo "${rpm[$p]}"; done) \
		>"$TMP/install.log" 2>&1; then
	pass "the four RPMs install together"
	rpm --root "$root" -V -a --nodeps >"$TMP/verify" 2>&1 && pass "rpm -V: the files as packaged" ||
		{ fail "rpm -V:"; head -5 "$TMP/verify" >&2; }
	"$root/usr/bin/sealert" -a "$AD_SOURCE_DIR/tests/data/sample.log" --policy "$POLICY" \
		>"$TMP/sealert" 2>&1 && grep -q '^SELinux is preventing' "$TMP/sealert" &&
		pass "the installed sealert -a" || { fail "the installed sealert -a:"; head -3 "$TMP/sealert" >&2; }
	"$root/usr/lib/avcdoctor/compat/audit2why" --version >"$TMP/v" 2>&1 &&
		pass "the installed compat link: $(cat "$TMP/v")" || fail "compat/audit2why: $(cat "$TMP/v")"
	rpm --root "$root" -e --nodeps --noscripts $pkgs >"$TMP/erase.log" 2>&1 &&
		[ -z "$(find "$root/usr" "$root/etc" -type f -o -type l 2>/dev/null)" ] &&
		pass "erased: no file left" || { fail "rpm -e left:"; find "$root/usr" "$root/etc" -type f -o -type l | head -5 >&2; }
else
	fail "rpm -i into a scratch root:"; cat "$TMP/rpmdb.err" "$TMP/install.log" | head -10 >&2
fi

# ---- the same files as the .debs
lists="$AD_BUILD_DIR/packages/deb"
# normal LIST: the files and links, in the layout both share
normal() {
	awk '$1 !~ /^d/ {print $2}' "$1" | sed -e 's|^/lib/systemd/|/usr/lib/systemd/|' \
		-e '/^\/usr\/share\/doc\//d' -e '/^\/usr\/share\/lintian\//d' -e '/^\/usr\/lib\/\.build-id\//d' \
		-e '/^\/usr\/lib\/sysusers\.d\/avcdoctor\.conf$/d' | sort -u
}
if [ -d "$lists" ] && [ "$(cat "$lists/source" 2>/dev/null)" != "$stamp" ]; then
	echo "skipped: the comparison with the .debs (the lists in $lists are of another source: run deb-package first)"
	[ "$failures" = 0 ] && exit 77
elif [ -d "$lists" ]; then
	for p in $pkgs; do
		if [ ! -s "$lists/$p.list" ]; then
			fail "no list of the .deb $p in $lists"
			continue
		fi
		normal "$lists/$p.list" >"$TMP/$p.deb.files"
		normal "$TMP/$p.rpmlist" >"$TMP/$p.rpm.files"
		if cmp -s "$TMP/$p.deb.files" "$TMP/$p.rpm.files"; then
			pass "$p: the same $(wc -l <"$TMP/$p.rpm.files") files as the .deb"
		else
			fail "$p: the files differ from the .deb's (< .deb, > RPM):"
			diff "$TMP/$p.deb.files" "$TMP/$p.rpm.files" | grep '^[<>]' >&2
		fi
	done
else
	echo "skipped: the comparison with the .debs (no $lists: tests/deb-package.sh writes it)"
	[ "$failures" = 0 ] && exit 77
fi
finish
