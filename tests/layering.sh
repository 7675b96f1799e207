#!/bin/bash
# The house's one-way arrows, checked on the sources (the build's include
# directories enforce the same): the core (analyzer/, plugins/) includes no
# header of a front end or of the store and never touches SQLite or D-Bus;
# the store sees only the core; the notifier sees nothing of the core; the
# front ends never borrow each other's code.  Also: no C file grows past
# 1,500 lines, plugins and rules cannot change the policy, no comment
# cites a document outside the repository, the core's layers include
# downwards only, and no files include each other in a loop.
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

# the order inside the core: read/ < policy/ < output/ < analysis/ (a layer
# includes nothing of a layer above it)
bad=0
for pair in "read:policy output analysis" "policy:output analysis" "output:analysis"; do
	low=${pair%%:*}
	for up in ${pair#*:}; do
		for h in $(cd "analyzer/$up" && ls *.h); do
			[ -e "analyzer/$low/$h" ] && continue
			if grep -nE "#include \"($up/)?$h\"" analyzer/"$low"/*.[ch] >"$TMP/hits"; then
				fail "analyzer/$low must not include analyzer/$up's $h:"; cat "$TMP/hits" >&2
				bad=1
			fi
		done
	done
done
[ $bad = 0 ] && pass "the core's layers include downwards only (read < policy < output < analysis)"

# No loops of files: in one folder, a file and its header are one module, and
# no two modules include each other, directly or around a longer loop.  The
# loops named here are known (docs/ARCHITECTURE.md names them); any other
# fails.  A line: the folder, then the loop's modules, sorted.
known_loops='analyzer/policy policy policy-private'

# prints "FOLDER MODULE..." for each loop of quoted includes in FOLDER
include_loops() {
	local dir=$1 base=$2 f h
	for f in "$dir"/*.[ch]; do
		[ -e "$f" ] || continue
		grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$f" |
			sed 's/.*"\(.*\)"/\1/' | while read -r h; do
				# "x.h" beside the file, or "sub/x.h" from the folder's base
				if [ -e "$dir/$h" ] && [ "$(dirname "$dir/$h")" = "$dir" ]; then
					:
				elif [ -n "$base" ] && [ "$(dirname "$base/$h")" = "$dir" ] &&
					[ -e "$base/$h" ]; then
					:
				else
					continue
				fi
				f0=${f##*/}; h0=${h##*/}
				[ "${f0%.?}" != "${h0%.h}" ] && echo "${f0%.?} ${h0%.h}"
			done
	done | sort -u | awk -v dir="$dir" '
		{ e[$1, $2] = 1; n[$1] = 1; n[$2] = 1 }
		END {
			for (k in n) for (i in n) for (j in n)
				if (((i, k) in e) && ((k, j) in e)) e[i, j] = 1
			for (i in n) {
				if (!((i, i) in e) || (i in done)) continue
				s = ""
				for (j in n) if (((i, j) in e) && ((j, i) in e)) { s = s " " j; done[j] = 1 }
				print dir s
			}
		}' | while read -r d rest; do
			echo "$d $(printf '%s\n' $rest | sort | tr '\n' ' ' | sed 's/ $//')"
		done
}

# a folder's private header stays in its folder (the unit tests may look inside)
bad=0
for h in $(find common analyzer store client cli dispatcher fixit notifier gui \
	\( -name '*-private.h' -o -name store-core.h \)); do
	dir=$(dirname "$h")
	if grep -rlE --include='*.[ch]' "#include \"([a-z]+/)*${h##*/}\"" \
		common analyzer plugins store client cli dispatcher fixit notifier gui |
		grep -v "^$dir/" >"$TMP/hits"; then
		fail "$h is included outside $dir:"; cat "$TMP/hits" >&2; bad=1
	fi
done
[ $bad = 0 ] && pass "private headers stay in their folders"

: >"$TMP/loops"
for d in common store client cli dispatcher fixit notifier gui; do
	include_loops "$d" "" >>"$TMP/loops"
done
for d in read policy output analysis; do
	include_loops "analyzer/$d" analyzer >>"$TMP/loops"
done
if grep -vxF -f <(printf '%s\n' "$known_loops") "$TMP/loops" >"$TMP/hits"; then
	fail "files that include each other in a loop (break it, or name it in docs/ARCHITECTURE.md and here):"
	cat "$TMP/hits" >&2
else
	pass "no loop of includes beyond the ones named ($(wc -l <"$TMP/loops") left)"
fi

[ "$failures" = 0 ]
