#!/bin/sh
# Every function, type or macro the docs name in backquotes (`tbSomething`, `TB_SOMETHING`) and
# every source file they name by path exists in the tree: a rename that forgets the docs fails.
# TAP output. usage: check_doc_names.sh SOURCE_ROOT
root=$1
cd "$root" || exit 1
echo "1..2"
missing=""
for name in $(grep -ohE '`(tb|TB_)[A-Za-z_0-9]+`' docs/*.md README.md | tr -d '`' | sort -u); do
	case $name in
	tbThing_Verb) continue ;; # the naming pattern, not a name
	esac
	grep -rqw "$name" --include='*.c' --include='*.h' --include='*.in' --include='*.cpp' \
		collision dynamics engine scene tools demos tests bench || missing="$missing $name"
done
if [ -z "$missing" ]; then
	echo "ok 1 - every name the docs give exists in the sources"
else
	echo "not ok 1 - named in the docs but not in the sources:$missing"
fi
absent=""
for path in $(grep -ohE '`[a-z_]+/[a-z_/]+\.(c|h|cpp|json|sh|md|txt)`' docs/*.md README.md | tr -d '`' | sort -u); do
	case $path in
	tumble/*) # an include name: a public header (version.h is generated from version.h.in)
		[ -e collision/include/"$path" ] || [ -e collision/include/"$path".in ] ||
			[ -e dynamics/include/"$path" ] || [ -e engine/include/"$path" ] || [ -e scene/include/"$path" ] ||
			absent="$absent $path"
		;;
	*) [ -e "$path" ] || absent="$absent $path" ;;
	esac
done
if [ -z "$absent" ]; then
	echo "ok 2 - every file the docs give by path exists"
else
	echo "not ok 2 - named in the docs but not in the tree:$absent"
fi
