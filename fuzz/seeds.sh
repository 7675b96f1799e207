#!/bin/sh
# Builds the seed corpora of the fuzz targets from the test data.
# Usage: fuzz/seeds.sh SOURCE_DIR OUT_DIR   (OUT_DIR/<target>/ is (re)created)
#   fuzz-reader: every log of tests/data/corpus whole, and single records split
#                out (the first 40 lines of each record type of each file); the
#                pasted-text forms of tests/data/pasted and the records
#                gathered from public bug trackers in tests/data/pasted-public
#   fuzz-policy: "scontext\ntcontext\nclass\nperm ..." of the corpus' AVCs
#   fuzz-rules:  rules/*.rules and tests/data/rules/**.rules
#   fuzz-escape: a few hostile strings and the corpus' comm/name values
#   fuzz-user-avc: the object manager's text of the USER_AVC records of the
#                corpus and of tests/data/hostile (after a class-choice byte)
#   fuzz-inflate: a few corpus records compressed with gzip, xz and zstd (those
#                of the three programs that are installed), after byte 3 (the
#                format is the one the magic says)
#   fuzz-pairs:  every pair of record forms (two form bytes, a join byte), with
#                the corpus' comm values and a few hostile ones
# The regression inputs in tests/data/fuzz/<target>/ are added to each.
set -eu
src=$1
out=$2
corpus=$src/tests/data/corpus

for t in fuzz-reader fuzz-policy fuzz-rules fuzz-escape fuzz-user-avc fuzz-inflate fuzz-pairs; do
	rm -rf "$out/$t"
	mkdir -p "$out/$t"
done

# one file per line of stdin, named by content (libFuzzer's own scheme)
put_lines() {
	while IFS= read -r line; do
		f=$out/$1/$(printf '%s' "$line" | sha1sum | cut -c1-40)
		printf '%s\n' "$line" >"$f"
	done
}

logs=$(find "$corpus" -type f \( -name '*.log' -o -name '*.txt' \) | sort)
for f in $logs; do
	cp "$f" "$out/fuzz-reader/whole-$(basename "$f")"
	awk '{ t = "none"; if (match($0, /type=[A-Z_0-9]+/)) t = substr($0, RSTART, RLENGTH)
	       if (n[t]++ < 40) print }' "$f" | put_lines fuzz-reader
done

# pasted text (grep prefixes, quoting, wrapped lines, colours, locale dates): each
# file whole, and its first 2 KiB, where the short forms fit in -max_len
for f in "$src"/tests/data/pasted/*.txt "$src"/tests/data/pasted/*.md \
	"$src"/tests/data/pasted-public/*.txt "$src"/tests/data/pasted-public/*.md \
	"$src"/tests/data/pasted-public/*.html; do
	[ -f "$f" ] || continue
	cp "$f" "$out/fuzz-reader/pasted-$(basename "$f")"
	head -c 2048 "$f" >"$out/fuzz-reader/pasted-head-$(basename "$f")"
done

cat $logs | grep -a 'avc:' |
	sed -n 's/.*scontext=\([^ ]*\) tcontext=\([^ ]*\) tclass=\([^ ]*\).*/\1|\2|\3/p' |
	sort -u | head -n 400 >"$out/.ctx"
cat $logs | grep -a 'avc:' | sed -n 's/.*{ \([^}]*\) }.*/\1/p' | sort -u |
	head -n 400 >"$out/.perms"
paste -d'|' "$out/.ctx" "$out/.perms" 2>/dev/null | while IFS='|' read -r s t c p; do
	[ -n "$c" ] || continue
	f=$out/fuzz-policy/$(printf '%s' "$s$t$c$p" | sha1sum | cut -c1-40)
	printf '%s\n%s\n%s\n%s' "$s" "$t" "$c" "$p" >"$f"
done
rm -f "$out/.ctx" "$out/.perms"

find "$src/rules" "$src/tests/data/rules" -type f -name '*.rules' | while read -r f; do
	cp "$f" "$out/fuzz-rules/$(echo "$f" | sed "s|^$src/||; s|/|_|g")"
done

cat $logs | grep -ao 'comm="[^"]*"\|name="[^"]*"\|comm=[0-9A-F]*\|name=[0-9A-F]*' |
	sort -u | head -n 200 | sed 's/^[a-z]*=//; s/"//g' | put_lines fuzz-escape
i=0
for s in '$(touch /tmp/pwned)' '`id`' 'a;id;b' "x';id;'" '-rf' "it's" '' \
	'\' '\\x41' '~root' '#c' 'a b' '*?[x]' "$(printf 'a\033[31mb\r\nc')" \
	"$(printf '\302\233\342\200\256x\377\376')"; do
	printf '%s' "$s" >"$out/fuzz-escape/crafted-$i"
	i=$((i + 1))
done
printf 'a\0b c\0\0--\0' >"$out/fuzz-escape/crafted-argv"

# the text between libselinux's "{ perm } for " and its last " scontext="
cat $logs "$src"/tests/data/hostile/*.log | grep -a 'type=USER_AVC' |
	sed -n 's/.*} for \(.*\) scontext=.*/\1/p' | sort -u | head -n 200 |
	while IFS= read -r line; do
		f=$out/fuzz-user-avc/$(printf '%s' "$line" | sha1sum | cut -c1-40)
		printf 'a%s' "$line" >"$f"
	done

# small compressed logs, whole streams of each format
head -c 3000 "$corpus/selinux-sepolgen-test_data-httpd.log" >"$out/.plain"
for z in "gzip -9" "gzip -1" "xz -6" "xz -0 --check=none" "zstd -3 -q" "zstd -19 -q"; do
	command -v "${z%% *}" >/dev/null 2>&1 || continue
	f=$out/fuzz-inflate/$(echo "$z" | tr -c 'a-z0-9\n' '-')
	{ printf '\003'; $z -c <"$out/.plain"; } >"$f"
done
rm -f "$out/.plain"

# two records run together: forms a and b (0-6), a join (0-2), their two values
i=0
for v in 'rs:main Q:Reg
smtpd' 'httpd
sshd' "x' type=AVC msg=audit(1.1:1): a
b" 'a tclass=file
b permissive=0'; do
	for a in 0 1 2 3 4 5 6; do
		for b in 0 1 2 3 4 5 6; do
			printf "\\$(printf %03o $a)\\$(printf %03o $b)\\$(printf %03o $((i % 3)))%s" "$v" \
				>"$out/fuzz-pairs/pair-$a-$b-$i"
		done
	done
	i=$((i + 1))
done

for t in fuzz-reader fuzz-policy fuzz-rules fuzz-escape fuzz-user-avc fuzz-inflate fuzz-pairs; do
	if [ -d "$src/tests/data/fuzz/$t" ]; then
		find "$src/tests/data/fuzz/$t" -type f -exec cp {} "$out/$t/" \;
	fi
done
for t in fuzz-reader fuzz-policy fuzz-rules fuzz-escape fuzz-user-avc fuzz-inflate fuzz-pairs; do
	echo "$t: $(ls "$out/$t" | wc -l) seeds"
done
