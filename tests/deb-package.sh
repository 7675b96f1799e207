#!/bin/bash
# The Debian packages, for real: a copy of the source tree (the files git
# knows, so none of the developers' build*/ folders) is built with
# dpkg-buildpackage (nocheck) in a temporary folder; the contents of the
# .debs are checked (and lintian finds no error, when it is installed); as root
# the packages are installed with dpkg -i, the installed programs are run on
# tests/data/sample.log, man and bash-completion find their files, and the
# packages are purged again.  The group avcdoctor is removed after the purge
# when the package created it.
# Exit 77 (skipped) without dpkg-buildpackage/debhelper; when not root, or
# when avcdoctor is already installed here, only the build and the contents
# are checked and the test ends with 77.
# ctest runs it under RESOURCE_LOCK avcdoctor-system (with dispatch-dbus and
# dispatch-e2e, which create the group avcdoctor and run auditd).
. "$AD_SOURCE_DIR/tests/lib.sh"
for p in dpkg-buildpackage dh dpkg-deb fakeroot; do
	if ! command -v "$p" >/dev/null; then
		echo "skipped: no $p (scripts/deps.sh test installs debhelper, dpkg-dev, fakeroot)" >&2
		exit 77
	fi
done
require_policy

pkgs="avcdoctor avcdoctor-desktop avcdoctor-fixit avcdoctor-sealert"
installed=
touched=
group_before=$(getent group avcdoctor >/dev/null && echo yes || echo no)
cleanup() {
	if [ -n "$installed" ]; then
		dpkg --purge $pkgs >"$TMP/purge.log" 2>&1 || cat "$TMP/purge.log" >&2
	fi
	if [ -n "$touched" ] && [ "$group_before" = no ] && getent group avcdoctor >/dev/null; then
		groupdel avcdoctor
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
# a ctest timeout (SIGTERM) still purges
trap 'exit 143' TERM INT HUP

# ---- a clean copy of the source
src="$TMP/src/avcdoctor"
mkdir -p "$src"
if git -C "$AD_SOURCE_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# tracked and new files as they are now, not what .gitignore leaves out
	(cd "$AD_SOURCE_DIR" && git ls-files -z -c -o --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
		done | tar --null -T - -cf -) | tar -x -C "$src"
else
	tar -C "$AD_SOURCE_DIR" --exclude='./build*' --exclude='./obj-*' --exclude=./.git \
		-cf - . | tar -x -C "$src"
fi
[ -x "$src/debian/rules" ] && pass "source copied ($(du -sh "$src" | cut -f1))" ||
	{ fail "no debian/rules in the copy"; finish; }
ls -d "$src"/build* "$src"/obj-* 2>/dev/null && fail "build folders in the copy"

# which source the packages are of (tests/rpm-package.sh compares with the
# same): the files git knows and their contents
stamp=$(cd "$AD_SOURCE_DIR" && git ls-files -z -c -o --exclude-standard 2>/dev/null |
	xargs -0 -r sha1sum 2>/dev/null | LC_ALL=C sort -k2 | sha1sum | cut -d' ' -f1)

# ---- the build (the whole project; nocheck: scripts/test.sh runs the tests)
start=$(date +%s)
if (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	nice dpkg-buildpackage -us -uc -b -Pnocheck) >"$TMP/build.log" 2>&1; then
	pass "dpkg-buildpackage -b in $(($(date +%s) - start)) s"
else
	fail "dpkg-buildpackage failed:"; tail -40 "$TMP/build.log" >&2
	finish
fi
grep -E 'dh_missing: warning|not installed to|missing files' "$TMP/build.log" &&
	fail "dh_install/dh_missing: files left out"
deb=$(ls "$TMP"/src/avcdoctor_*.deb 2>/dev/null | head -1)
ddeb=$(ls "$TMP"/src/avcdoctor-desktop_*.deb 2>/dev/null | head -1)
fdeb=$(ls "$TMP"/src/avcdoctor-fixit_*.deb 2>/dev/null | head -1)
sdeb=$(ls "$TMP"/src/avcdoctor-sealert_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] && [ -n "$ddeb" ] && [ -n "$fdeb" ] && [ -n "$sdeb" ] &&
	pass "four packages: $(basename "$deb") $(basename "$ddeb") $(basename "$fdeb") $(basename "$sdeb")" ||
	{ fail "packages missing: $(ls "$TMP/src")"; finish; }

# ---- contents
dpkg-deb -c "$deb" | awk '{print $1, $6}' | sed 's| \./| /|' >"$TMP/deb.list"
dpkg-deb -c "$ddeb" | awk '{print $1, $6}' | sed 's| \./| /|' >"$TMP/ddeb.list"
dpkg-deb -c "$fdeb" | awk '{print $1, $6}' | sed 's| \./| /|' >"$TMP/fdeb.list"
dpkg-deb -c "$sdeb" | awk '{print $1, $6}' | sed 's| \./| /|' >"$TMP/sdeb.list"
# the lists that tests/rpm-package.sh compares the RPMs' with (one a package)
lists="$AD_BUILD_DIR/packages/deb"
rm -rf "$lists" && mkdir -p "$lists"
cp "$TMP/deb.list" "$lists/avcdoctor.list"
cp "$TMP/ddeb.list" "$lists/avcdoctor-desktop.list"
cp "$TMP/fdeb.list" "$lists/avcdoctor-fixit.list"
cp "$TMP/sdeb.list" "$lists/avcdoctor-sealert.list"
echo "$stamp" >"$lists/source"
has() { # has LIST PATH [MODE]
	local line
	line=$(grep -E " $2\$" "$1")
	if [ -z "$line" ]; then fail "$(basename "$1" .list) lacks $2"; return; fi
	if [ -n "${3:-}" ] && [ "${line%% *}" != "$3" ]; then
		fail "$2 is ${line%% *}, wanted $3"; return
	fi
	pass "$(basename "$1" .list) has $2${3:+ ($3)}"
}
has "$TMP/deb.list" /usr/bin/avcdoctor -rwxr-xr-x
has "$TMP/deb.list" /usr/sbin/avcdoctor-dispatch -rwxr-xr-x
has "$TMP/deb.list" /usr/lib/avcdoctor/compat/audit2allow lrwxrwxrwx
has "$TMP/deb.list" /usr/lib/avcdoctor/compat/audit2why lrwxrwxrwx
has "$TMP/deb.list" /usr/lib/avcdoctor/compat/sealert lrwxrwxrwx
has "$TMP/deb.list" /etc/audit/plugins.d/avcdoctor-dispatch.conf -rw-r-----
has "$TMP/deb.list" /etc/avcdoctor/avcdoctor.conf
has "$TMP/deb.list" /usr/share/dbus-1/system.d/org.avcdoctor.Daemon.conf
has "$TMP/deb.list" /usr/share/dbus-1/interfaces/org.avcdoctor.Alerts1.xml
has "$TMP/deb.list" /usr/share/dbus-1/system.d/org.fedoraproject.Setroubleshootd.conf
has "$TMP/deb.list" /usr/share/dbus-1/interfaces/org.fedoraproject.SetroubleshootdIface.xml
has "$TMP/deb.list" /usr/share/bash-completion/completions/avcdoctor
has "$TMP/deb.list" /usr/share/man/man1/avcdoctor.1.gz
has "$TMP/deb.list" /usr/share/man/man5/avcdoctor.rules.5.gz
has "$TMP/deb.list" /usr/share/man/man8/avcdoctor-dispatch.8.gz
has "$TMP/deb.list" /usr/share/doc/avcdoctor/copyright
for r in "$AD_SOURCE_DIR"/rules/*.rules; do
	has "$TMP/deb.list" "/usr/share/avcdoctor/rules/$(basename "$r")"
done
if [ -f "$AD_SOURCE_DIR/po/LINGUAS" ]; then
	for l in $(grep -v '^#' "$AD_SOURCE_DIR/po/LINGUAS"); do
		has "$TMP/deb.list" "/usr/share/locale/$l/LC_MESSAGES/avcdoctor.mo"
	done
fi
has "$TMP/ddeb.list" /usr/bin/avcdoctor-notify -rwxr-xr-x
has "$TMP/ddeb.list" /etc/xdg/autostart/avcdoctor-notify.desktop
has "$TMP/ddeb.list" /usr/share/man/man1/avcdoctor-notify.1.gz
if grep -q ' /usr/bin/avcdoctor-browser$' "$TMP/ddeb.list"; then
	has "$TMP/ddeb.list" /usr/share/man/man1/avcdoctor-browser.1.gz
	grep -qE ' /usr/share/applications/[^/]*\.desktop$' "$TMP/ddeb.list" &&
		pass "the browser's .desktop file" || fail "the browser has no .desktop file"
	grep -qE ' /usr/share/icons/.*avcdoctor' "$TMP/ddeb.list" &&
		pass "the browser's icon" || fail "the browser has no icon"
elif [ -f "$AD_SOURCE_DIR/gui/CMakeLists.txt" ] && grep -q 'add_subdirectory(gui)' "$AD_SOURCE_DIR/CMakeLists.txt"; then
	fail "gui/ is built but avcdoctor-desktop has no avcdoctor-browser"
else
	echo "note: no browser in this tree yet (gui/ not built)"
fi
has "$TMP/fdeb.list" /usr/libexec/avcdoctor-fixit -rwxr-xr-x
has "$TMP/fdeb.list" /usr/share/dbus-1/system-services/org.avcdoctor.Fixit1.service
has "$TMP/fdeb.list" /usr/share/dbus-1/system-services/org.fedoraproject.SetroubleshootFixit.service
has "$TMP/fdeb.list" /usr/share/dbus-1/system.d/org.avcdoctor.Fixit1.conf
has "$TMP/fdeb.list" /usr/share/polkit-1/actions/org.avcdoctor.fixit.policy
has "$TMP/fdeb.list" /lib/systemd/system/avcdoctor-fixit.service
has "$TMP/fdeb.list" /usr/share/man/man8/avcdoctor-fixit.8.gz
has "$TMP/sdeb.list" /usr/bin/sealert lrwxrwxrwx
has "$TMP/sdeb.list" /usr/share/man/man1/sealert.1.gz
has "$TMP/sdeb.list" /usr/share/bash-completion/completions/sealert
grep -q ' /usr/bin/sealert$' "$TMP/deb.list" && fail "avcdoctor itself has /usr/bin/sealert"
dpkg-deb -f "$sdeb" Conflicts | grep -qw setroubleshoot &&
	pass "avcdoctor-sealert conflicts with setroubleshoot (the same command)" ||
	fail "avcdoctor-sealert does not conflict with setroubleshoot"
dpkg-deb -f "$fdeb" Depends | grep -q 'polkitd' && pass "avcdoctor-fixit depends on polkitd" ||
	fail "avcdoctor-fixit does not depend on polkitd"
# nothing in two packages, nothing under /usr/local or a build path
sort -k2 "$TMP/deb.list" "$TMP/ddeb.list" "$TMP/fdeb.list" "$TMP/sdeb.list" | awk '$1 !~ /^d/ {print $2}' | uniq -d >"$TMP/dups"
[ -s "$TMP/dups" ] && fail "in both packages: $(cat "$TMP/dups")" || pass "no file in both packages"
grep -E ' /usr/local|/usr/etc|/obj-|/build' "$TMP/deb.list" "$TMP/ddeb.list" "$TMP/fdeb.list" "$TMP/sdeb.list" && fail "paths out of place"
dpkg-deb -f "$deb" Depends | grep -q 'libc6' && pass "Depends from shlibs: $(dpkg-deb -f "$deb" Depends)" ||
	fail "no shlibs dependencies"
for f in Conflicts Replaces; do
	dpkg-deb -f "$deb" "$f" | grep -qw setroubleshoot-server &&
		pass "$f: setroubleshoot-server (the same bus name)" ||
		fail "no $f: setroubleshoot-server"
done
dpkg-deb -f "$deb" Recommends | grep -q selinux-policy-default && pass "Recommends selinux-policy-default" ||
	fail "does not recommend selinux-policy-default"
dpkg-deb -f "$ddeb" Depends | grep -q 'avcdoctor (= ' && pass "avcdoctor-desktop depends on avcdoctor" ||
	fail "avcdoctor-desktop does not depend on avcdoctor"
if command -v lintian >/dev/null; then
	# errors fail the test; warnings and the rest are printed for information
	lintian --tag-display-limit 0 "$TMP"/src/avcdoctor_*.changes >"$TMP/lintian" 2>&1
	grep -v 'root privileges' "$TMP/lintian" | sed 's/^/    lintian: /'
	grep -q '^E: ' "$TMP/lintian" && fail "lintian errors" || pass "lintian: no errors"
fi

# ---- installed for real
if [ "$(id -u)" != 0 ]; then
	echo "skipped: not root, so not installed"
	[ "$failures" = 0 ] && exit 77
	finish
fi
if dpkg-query -W -f='${Status}' avcdoctor 2>/dev/null | grep -q 'ok installed'; then
	echo "skipped: avcdoctor is installed on this machine; not replaced by the test's package"
	[ "$failures" = 0 ] && exit 77
	finish
fi
# the purge removes the store folder: never one that was here before
if [ -e /var/lib/avcdoctor ]; then
	echo "skipped: /var/lib/avcdoctor exists on this machine; the purge would remove it"
	[ "$failures" = 0 ] && exit 77
	finish
fi
installed=1 touched=1
# policycoreutils' audit2allow and audit2why, as they are before the install
peers_state() {
	local f
	for f in /usr/bin/audit2allow /usr/bin/audit2why; do
		dpkg -S "$f" >/dev/null 2>&1 || continue
		printf '%s %s\n' "$f" "$(stat -c '%F' "$f" 2>&1) $(readlink "$f")"
	done
}
PEERS_BEFORE=$(peers_state)
if dpkg -i "$deb" "$ddeb" "$fdeb" "$sdeb" >"$TMP/install.log" 2>&1; then
	pass "dpkg -i"
else
	fail "dpkg -i failed:"; tail -20 "$TMP/install.log" >&2
	finish
fi
getent group avcdoctor >/dev/null && pass "the group avcdoctor exists" || fail "no group avcdoctor"

/usr/bin/avcdoctor why "$AD_SOURCE_DIR/tests/data/sample.log" >"$TMP/why" 2>"$TMP/why.err"
st=$?
[ "$st" = 0 ] && pass "/usr/bin/avcdoctor why: exit 0" || { fail "why: exit $st"; cat "$TMP/why.err" >&2; }
expect_grep 'scontext=system_u:system_r:httpd_t:s0' "$TMP/why" "why: the denial's scontext"
expect_grep 'Reason: te_rule' "$TMP/why" "why: a te_rule reason"
expect_grep 'setsebool -P httpd_read_user_content=1' "$TMP/why" "why: the boolean that allows it"
/usr/bin/avcdoctor why --json "$AD_SOURCE_DIR/tests/data/sample.log" >"$TMP/why.json" 2>/dev/null
expect_grep '"scontext":"system_u:system_r:httpd_t:s0"' "$TMP/why.json" "why --json: scontext"
expect_grep '"reason":"boolean"' "$TMP/why.json" "why --json: a boolean reason"
# analyze reads the installed rules (share/avcdoctor/rules)
/usr/bin/avcdoctor analyze "$AD_SOURCE_DIR/tests/data/sample.log" >"$TMP/analyze" 2>"$TMP/analyze.err"
st=$?
[ "$st" = 0 ] && [ -s "$TMP/analyze" ] && pass "/usr/bin/avcdoctor analyze: exit 0" ||
	{ fail "analyze: exit $st"; head -5 "$TMP/analyze.err" >&2; }
grep -i 'rule' "$TMP/analyze.err" && fail "analyze complains about the rules"
/usr/bin/avcdoctor check-rules /usr/share/avcdoctor/rules/*.rules >"$TMP/check" 2>&1 &&
	pass "check-rules: the installed rules are clean" || { fail "check-rules:"; cat "$TMP/check" >&2; }
# audit2allow under its name; policycoreutils' own program is never replaced
/usr/lib/avcdoctor/compat/audit2allow -p "$POLICY" -i "$AD_SOURCE_DIR/tests/data/sample.log" \
	>"$TMP/a2a" 2>"$TMP/a2a.err"
grep -q '^#============= ' "$TMP/a2a" && pass "the installed audit2allow link" ||
	{ fail "the installed audit2allow link"; cat "$TMP/a2a.err" >&2; }
# setroubleshoot's command, from avcdoctor-sealert
/usr/bin/sealert -a "$AD_SOURCE_DIR/tests/data/sample.log" --policy "$POLICY" >"$TMP/sealert" 2>&1 &&
	grep -q '^SELinux is preventing' "$TMP/sealert" && pass "the installed sealert -a" ||
	{ fail "the installed sealert -a:"; head -5 "$TMP/sealert" >&2; }
# policycoreutils' programs are never replaced, nor removed with the package
[ "$(peers_state)" = "$PEERS_BEFORE" ] && pass "policycoreutils' audit2allow and audit2why stay in place" ||
	{ fail "audit2allow or audit2why changed:"; peers_state >&2; }
# the dispatcher as auditd would start it: the path of the plugins.d file
path=$(sed -n 's/^path *= *//p' /etc/audit/plugins.d/avcdoctor-dispatch.conf)
[ "$path" = /usr/sbin/avcdoctor-dispatch ] && [ -x "$path" ] &&
	pass "plugins.d names $path" || fail "plugins.d path is '$path'"
"$path" --stdout --policy "$POLICY" <"$AD_SOURCE_DIR/tests/data/sample.log" >"$TMP/d.jsonl" 2>"$TMP/d.err"
st=$?
[ "$st" = 0 ] && grep -q '"id"' "$TMP/d.jsonl" && pass "avcdoctor-dispatch --stdout: alerts" ||
	{ fail "avcdoctor-dispatch --stdout: exit $st"; head -5 "$TMP/d.err" >&2; }
for prog in /usr/bin/avcdoctor-notify /usr/bin/avcdoctor-browser; do
	[ -e "$prog" ] || continue
	env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 "$prog" --version >"$TMP/v" 2>&1 &&
		pass "$prog --version: $(cat "$TMP/v")" || fail "$prog --version: $(cat "$TMP/v")"
done

/usr/libexec/avcdoctor-fixit --version >"$TMP/v" 2>&1 && pass "avcdoctor-fixit --version: $(cat "$TMP/v")" ||
	fail "avcdoctor-fixit --version: $(cat "$TMP/v")"
/usr/libexec/avcdoctor-fixit --bin-dir /tmp --log-stderr >"$TMP/v" 2>&1
[ $? = 2 ] && grep -q refused "$TMP/v" && pass "the installed helper refuses --bin-dir" ||
	fail "the installed helper took --bin-dir: $(cat "$TMP/v")"

# man and bash-completion find the installed files
pages="avcdoctor avcdoctor.rules avcdoctor-dispatch avcdoctor-notify avcdoctor-fixit sealert"
[ -e /usr/bin/avcdoctor-browser ] && pages="$pages avcdoctor-browser"
for page in $pages; do
	w=$(man -w "$page" 2>/dev/null)
	case $w in
		/usr/share/man/man?/"$page".?.gz) pass "man -w $page: $w" ;;
		*) fail "man -w $page: '$w'" ;;
	esac
done
LC_ALL=C.UTF-8 MANWIDTH=80 man avcdoctor 2>&1 | grep -q 'avcdoctor why' &&
	pass "man avcdoctor renders" || fail "man avcdoctor does not render"
if [ -r /usr/share/bash-completion/bash_completion ]; then
	bash -c '. /usr/share/bash-completion/bash_completion
		_completion_loader avcdoctor; complete -p avcdoctor' >"$TMP/comp" 2>&1
	grep -q -- '-F _avcdoctor avcdoctor' "$TMP/comp" && pass "bash-completion loads the completion" ||
		fail "bash-completion: $(cat "$TMP/comp")"
fi

# ---- purged: nothing left
if dpkg --purge $pkgs >"$TMP/purge.log" 2>&1; then pass "dpkg --purge"; else
	fail "dpkg --purge failed:"; tail -20 "$TMP/purge.log" >&2
fi
installed=
for f in /usr/bin/avcdoctor /usr/bin/sealert /usr/sbin/avcdoctor-dispatch /etc/audit/plugins.d/avcdoctor-dispatch.conf \
	/etc/avcdoctor /usr/share/avcdoctor /etc/xdg/autostart/avcdoctor-notify.desktop /var/lib/avcdoctor; do
	[ -e "$f" ] && fail "$f is left after the purge"
done
for p in $pkgs; do
	case $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) in
		"" | *not-installed) ;;
		*) fail "dpkg still has $p: $(dpkg-query -W -f='${Status}' "$p")" ;;
	esac
done
if [ "$group_before" = no ] && getent group avcdoctor >/dev/null; then
	groupdel avcdoctor && pass "the group avcdoctor removed again" || fail "groupdel avcdoctor"
fi
touched=
pass "purged"
[ "$(peers_state)" = "$PEERS_BEFORE" ] && pass "policycoreutils' audit2allow and audit2why unchanged after the purge" ||
	{ fail "the purge changed audit2allow or audit2why:"; peers_state >&2; }
finish
