#!/bin/bash
# The house's one-way arrows, checked on the sources (the build's include
# directories enforce the same): the core (analyzer/, plugins/) includes no
# header of a front end or of the store and never touches SQLite or D-Bus;
# the store sees only the core; the notifier sees nothing of the core; the
# front ends never borrow each other's code.  Also: no C file grows past
# 1,500 lines, plugins and rules cannot change the policy, and no comment
# cites a document outside the repository.
. "$AD_SOURCE_DIR/tests/lib.sh"
cd "$AD_SOURCE_DIR" || exit 1

# the headers a folder offers, as they are included
headers_of() {
	case $1 in
	analyzer) (cd analyzer && find . -name '*.h' | sed 's|^\./||') ;;
	*) find "$1" -maxdepth 1 -name '*.h' -printf '%f\n' 2>/dev/null ;;
	esac
}

# check FOLDER... -- FORBIDDEN-FOLDER...: no file of the first list includes a header of the second
check() {
	local from=() to=() seen=0 f h bad=0
	for a in "$@"; do
		if [ "$a" = -- ]; then seen=1; elif [ $seen = 0 ]; then from+=("$a"); else to+=("$a"); fi
	done
	for t in "${to[@]}"; do
		for h in $(headers_of "$t"); do
			# a header of the same name in an allowed folder is that folder's
			for f in "${from[@]}"; do [ -e "$f/$h" ] && continue 2; done
			if grep -rnF --include='*.[ch]' "#include \"$h\"" "${from[@]}" >"$TMP/hits"; then
				fail "${from[*]} must not include $t's $h:"; cat "$TMP/hits" >&2; bad=1
			fi
		done
	done
	[ $bad = 0 ] && pass "${from[*]} include nothing of ${to[*]}"
}

check common -- analyzer plugins cli dispatcher store gui notifier client fixit
check analyzer plugins -- cli dispatcher store gui notifier client
check store -- cli dispatcher gui notifier client
check cli -- dispatcher gui notifier
check dispatcher -- cli gui notifier
check gui -- cli dispatcher store notifier
check notifier -- analyzer plugins cli dispatcher store gui
check fixit -- cli gui notifier

# plugins and rules only read the policy: its in-memory edits are declared apart
if grep -nF '#include "policy/policy-edit.h"' plugins/*.[ch] analyzer/analysis/rules*.[ch] \
	>"$TMP/hits"; then
	fail "plugins and rules must not change the policy (policy/policy-edit.h):"
	cat "$TMP/hits" >&2
else
	pass "plugins and rules cannot change the policy"
fi

# the core speaks no SQL and no D-Bus
if grep -rnE --include='*.[ch]' 'sqlite3|g_dbus_|GDBus' analyzer plugins >"$TMP/hits"; then
	fail "the core uses SQLite or D-Bus:"; cat "$TMP/hits" >&2
else
	pass "the core uses neither SQLite nor D-Bus"
fi

# the store keeps alerts; speaking D-Bus is the dispatcher's and the client library's
if grep -rnE --include='*.[ch]' 'g_dbus_|GDBus|gio/gio.h' store >"$TMP/hits"; then
	fail "the store speaks D-Bus:"; cat "$TMP/hits" >&2
else
	pass "the store speaks no D-Bus"
fi

# the D-Bus names are spelled once, in client/ (alerts-client.h, fixit-client.h)
if grep -rnE --include='*.[ch]' '"org\.avcdoctor\.(Daemon|Alerts1|Fixit1|Error\.|fix")|"/org/avcdoctor/(Daemon|Fixit1)"|"/?org[./]fedoraproject[./][Ss]etroubleshoot' \
	analyzer plugins cli dispatcher store gui notifier fixit | grep -vE '(dispatcher/(dbus-service|setroubleshoot)|fixit/[a-z-]*)\.c:.*AD_[A-Z_0-9]*RESOURCE_XML' >"$TMP/hits"; then
	fail "D-Bus names spelled outside client/:"; cat "$TMP/hits" >&2
else
	pass "the D-Bus names are spelled once"
fi

# one file, one idea: nothing past about 1,500 lines
big=$(find common analyzer plugins cli dispatcher store client gui notifier fixit -name '*.c' \
	-exec wc -l {} + 2>/dev/null | awk '$2 != "total" && $1 > 1500 { print $2 " (" $1 ")" }')
[ -z "$big" ] && pass "no C file over 1,500 lines" || fail "C files over 1,500 lines: $big"

# the repository stands alone: comments cite no outside document
if grep -rnE --include='*.[ch]' --include='*.txt' --include='*.sh' \
	'shared/|DESIGN\.md|SECURITY\.md section|issue [0-9]+|\(#[0-9]+\)' \
	common analyzer plugins cli dispatcher store client gui notifier fixit >"$TMP/hits"; then
	fail "comments cite documents or issues outside the repository:"; cat "$TMP/hits" >&2
else
	pass "no comment cites an outside document"
fi

# numbers for programs are the same in every locale: no printf-style %f, %.3f,
# %g... (LC_NUMERIC's decimal comma made "time":1700000001,100).  Allowed:
# text for people, marked for translation (_(, N_(, T_(, ngettext), and
# g_ascii_formatd / g_ascii_dtostr, which always write a point
if grep -rnE --include='*.[ch]' '%[-+ #0]*[0-9*]*(\.[0-9*]+)?[lL]?[fFeEgG]([^A-Za-z_]|$)' \
	common analyzer plugins cli dispatcher store client gui notifier fixit |
	grep -vE '(^|[^A-Za-z_])(N?_|T_|ngettext)\(|g_ascii_(formatd|dtostr)' |
	grep -vE '^[^:]*:[0-9]+:\s*(/?\*|//)' >"$TMP/hits"; then
	fail "floating-point printf formats outside translated text (use ad_json_time," \
		"g_ascii_formatd or json-c):"; cat "$TMP/hits" >&2
else
	pass "no printf-style floating-point format writes for programs"
fi

# the build enforces it too: the core's include path names only its own folders
inc=$(grep -A3 'target_include_directories(adcore' analyzer/CMakeLists.txt | tr '\n' ' ')
case $inc in
*cli* | *dispatcher* | *store* | *gui* | *notifier* | *plugins*)
	fail "adcore's include directories name a front end: $inc" ;;
*) pass "adcore's include directories are its own" ;;
esac

[ "$failures" = 0 ]
