#!/bin/sh
# Extracts the translatable messages of avcdoctor into a template.
# Usage: po/make-pot.sh SOURCE_DIR OUTPUT.pot
# The sources are those of po/POTFILES.in, by kind: C (_, N_, C_, NC_,
# ngettext, ad_msg_add_plural), GtkBuilder .ui, .desktop.in files, polkit .policy.in files and the texts of
# rules/*.rules (Summary, If, Then: avcdoctor.rules(5)).  Used by the
# `pot` target and by tests/po-check.sh.
set -eu
src=$1
out=$2
cd "$src"

version=$(sed -n 's/^project(avcdoctor VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in > "$tmp/all"
grep '\.c$' "$tmp/all" > "$tmp/c" || true
grep '\.ui$' "$tmp/all" > "$tmp/ui" || true
grep '\.desktop\.in$' "$tmp/all" > "$tmp/desktop" || true
grep '\.rules$' "$tmp/all" > "$tmp/rules" || true
grep '\.policy\.in$' "$tmp/all" > "$tmp/policy" || true

# --flag: every printf-like function that takes a translated format, so that
# the message is c-format and msgfmt --check compares the translation's
# directives with the original's, also when the original has none
common="--from-code=UTF-8 --add-comments=TRANSLATORS: --sort-by-file
	--package-name=avcdoctor --package-version=$version
	--msgid-bugs-address=https://github.com/avcdoctor/avcdoctor/issues"
# shellcheck disable=SC2086
xgettext $common --language=C --keyword=_ --keyword=T_ --keyword=N_ --keyword=C_:1c,2 \
	--keyword=NC_:1c,2 --keyword=ngettext:1,2 --keyword=g_dngettext:2,3 \
	--keyword=ad_msg_add_plural:2,3 \
	--flag=g_strdup_printf:1:c-format --flag=g_string_append_printf:2:c-format \
	--flag=g_set_error:4:c-format --flag=g_prefix_error:2:c-format \
	--flag=g_string_printf:2:c-format --flag=reader_problem:2:c-format \
	--flag=problem:3:c-format --flag=ad_dispatch_log:2:c-format \
	--flag=log_msg:1:c-format --flag=ad_cli_message:1:c-format \
	--flag=ad_suggestion_set_if:2:c-format --flag=ad_suggestion_set_then:2:c-format \
	--flag=ad_msg_add:2:c-format --flag=ad_msg_add_plural:2:c-format \
	--flag=ad_msg_add_plural:3:c-format \
	--files-from="$tmp/c" -o "$tmp/out.pot"
[ -s "$tmp/ui" ] &&
	xgettext $common --language=Glade --join-existing \
		--files-from="$tmp/ui" -o "$tmp/out.pot"
[ -s "$tmp/desktop" ] &&
	xgettext $common --language=Desktop --join-existing \
		--files-from="$tmp/desktop" -o "$tmp/out.pot"
[ -s "$tmp/rules" ] &&
	xgettext $common --language=Desktop --join-existing -k \
		--keyword=Summary --keyword=If --keyword=Then \
		--files-from="$tmp/rules" -o "$tmp/out.pot"
# polkit actions: their description and message (po/its/polkit.its)
[ -s "$tmp/policy" ] &&
	xgettext $common --its=po/its/polkit.its --join-existing \
		--files-from="$tmp/policy" -o "$tmp/out.pot"
# the creation date changes on every run: keep it out of the committed file
sed '/^"POT-Creation-Date:/d' "$tmp/out.pot" > "$out"
