#!/bin/bash
# Every man page in the tree (man/, cli/, dispatcher/, fixit/, notifier/, gui/):
#  - renders without a single groff warning (groff -ww, and man-db's own
#    pipeline with --warnings), in UTF-8 and in ASCII;
#  - has .TH with the section of its file name, NAME (that whatis/lexgrog
#    can parse), SYNOPSIS and DESCRIPTION;
#  - is true: every option that the built program's --help prints is in
#    its page (avcdoctor: every command's --help; avcdoctor-dispatch;
#    avcdoctor-notify; sealert; avcdoctor-browser when it is built, whose GTK options
#    may be left to gtk-options(7)).
. "$AD_SOURCE_DIR/tests/lib.sh"
cd "$AD_SOURCE_DIR" || exit 1
if ! command -v groff >/dev/null; then
	echo "no groff: install groff-base" >&2
	exit 1
fi

mapfile -t pages < <(find man cli dispatcher notifier gui fixit -name '*.[1-8]' -type f 2>/dev/null | sort)
[ "${#pages[@]}" -ge 4 ] && pass "${#pages[@]} man pages" || fail "only ${#pages[@]} man pages found"

# render PAGE: plain text, no hyphenation, long lines (for the option checks)
render() {
	LC_ALL=C groff -man -Tascii -rHY=0 -rLL=250n -P-cbou "$1" 2>/dev/null
}

for p in "${pages[@]}"; do
	for dev in utf8 ascii; do
		LC_ALL=C.UTF-8 groff -ww -man -T$dev -z "$p" >"$TMP/out" 2>"$TMP/err"
		if [ -s "$TMP/err" ]; then
			fail "$p: groff -ww -T$dev warns:"; head -10 "$TMP/err" | sed 's/^/    /' >&2
		else pass "$p: no groff warnings (-T$dev)"; fi
	done
	if command -v man >/dev/null; then
		LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
			man --warnings -E UTF-8 -l -Tutf8 -Z "$p" >"$TMP/out" 2>"$TMP/err"
		if [ -s "$TMP/err" ]; then
			fail "$p: man --warnings warns:"; head -10 "$TMP/err" | sed 's/^/    /' >&2
		else pass "$p: no man --warnings output"; fi
	fi

	section=${p##*.}
	th=$(sed -n 's/^\.TH  *"\{0,1\}\([^ "]*\)"\{0,1\}  *"\{0,1\}\([^ "]*\)"\{0,1\}.*/\1 \2/p' "$p" | head -1)
	name=$(basename "$p" ."$section")
	want_th="$(echo "$name" | tr '[:lower:]' '[:upper:]') $section"
	[ "$th" = "$want_th" ] && pass "$p: .TH $th" || fail "$p: .TH is '$th', wanted '$want_th'"
	for s in NAME SYNOPSIS DESCRIPTION; do
		grep -qE "^\.SH +\"?$s\"?\$" "$p" && pass "$p: has $s" || fail "$p: no .SH $s"
	done
	if command -v lexgrog >/dev/null; then
		if lexgrog "$p" >"$TMP/out" 2>&1 && grep -q -- " - " "$TMP/out"; then
			pass "$p: whatis entry: $(sed 's/^[^:]*: *//' "$TMP/out" | head -1)"
		else fail "$p: lexgrog cannot parse its NAME section: $(cat "$TMP/out")"; fi
	fi
done

# help_opts PROGRAM [ARG...]: the options its --help lists (-x and --long)
help_opts() {
	"$@" --help 2>/dev/null | sed -n 's/^  \(-[^ ].*\)$/\1/p' |
		grep -oE '(^|, )--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^, //' | sort -u
}

# check_opts PAGE DESCRIPTION PROGRAM [ARG...]: every option of its --help is in PAGE
check_opts() {
	local page=$1 desc=$2 opts missing="" o
	shift 2
	if ! "$@" --help >/dev/null 2>"$TMP/err"; then
		fail "$desc --help fails: $(head -3 "$TMP/err")"
		return
	fi
	opts=$(help_opts "$@")
	[ -n "$opts" ] || { fail "$desc: no options in its --help"; return; }
	render "$page" >"$TMP/page.txt"
	# GTK's own options (--help-gtk lists them; GTK adds --display) may be
	# left to gtk-options(7) when the page names it
	local gtk=""
	if echo "$opts" | grep -qx -- --help-gtk && grep -q 'gtk-options' "$TMP/page.txt"; then
		gtk=$("$@" --help-gtk 2>/dev/null | sed -n 's/^  \(--[A-Za-z0-9-]*\).*/\1/p')
		gtk="$gtk --help-gtk --display"
	fi
	for o in $opts; do
		case " $(echo $gtk) " in *" $o "*) continue ;; esac
		grep -qE -- "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|\$)" "$TMP/page.txt" ||
			missing="$missing $o"
	done
	[ -z "$missing" ] && pass "$desc: every option of --help is in $page" ||
		fail "$desc: $page lacks$missing"
}

commands=$("$AVCDOCTOR" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
[ -n "$commands" ] || fail "no commands in avcdoctor --help"
for c in $commands; do
	render cli/avcdoctor.1 | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' |
		grep -qE "(^|[ |])$c([ |]|\$)" && pass "avcdoctor.1: $c in the SYNOPSIS" ||
		fail "cli/avcdoctor.1: no $c in the SYNOPSIS"
	check_opts cli/avcdoctor.1 "avcdoctor $c" "$AVCDOCTOR" "$c"
done
# avcdoctor called as sealert (the link beside it in the build)
check_opts cli/sealert.1 sealert "$AD_BUILD_DIR/bin/sealert"
check_opts dispatcher/avcdoctor-dispatch.8 avcdoctor-dispatch "$AD_BUILD_DIR/bin/avcdoctor-dispatch"
if [ -x "$AD_BUILD_DIR/bin/avcdoctor-fixit" ]; then
	check_opts fixit/avcdoctor-fixit.8 avcdoctor-fixit "$AD_BUILD_DIR/bin/avcdoctor-fixit"
fi
if [ -x "$AD_BUILD_DIR/bin/avcdoctor-notify" ]; then
	check_opts notifier/avcdoctor-notify.1 avcdoctor-notify "$AD_BUILD_DIR/bin/avcdoctor-notify"
fi
browser=$(find "$AD_BUILD_DIR/bin" -maxdepth 1 -name avcdoctor-browser -type f -perm -u+x 2>/dev/null)
if [ -n "$browser" ]; then
	page=$(find man gui -name avcdoctor-browser.1 | head -1)
	if [ -n "$page" ]; then
		check_opts "$page" avcdoctor-browser "$browser"
	else
		fail "avcdoctor-browser is built but has no man page"
	fi
fi
finish
