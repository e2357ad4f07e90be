#!/bin/sh
# Ground-truth hook for the live suite (POSIX sh: Claude runs hooks with /bin/sh -c).
# Usage: dumper.sh DIR LABEL EVENT
# Records one invocation under DIR/LABEL/rec/NN.EVENT/ (stdin.json, env, cwd; NN is the order
# across every label) and answers from DIR/LABEL/answers/: the first file that exists of
# EVENT.TAG for each `tag-…` word in stdin, in order, then EVENT.#K (K: the K-th call of EVENT
# for this label), then EVENT. An answer file is sourced: it prints and may `exit N`.
dir=$1 label=$2 ev=$3
in=$(cat)
until mkdir "$dir/lock" 2>/dev/null; do sleep 0.01; done
n=$(cat "$dir/count" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$dir/count"
k=$(cat "$dir/$label/seen.$ev" 2>/dev/null || echo 0)
k=$((k + 1))
echo "$k" > "$dir/$label/seen.$ev"
rmdir "$dir/lock"
# Written aside and renamed into rec/ whole: a client that kills a hook mid-write (Claude does
# after a refused API request) leaves no half record behind.
rec="$dir/$label/rec/$(printf %03d "$n").$ev"
part="$dir/$label/part.$n"
mkdir -p "$part" "$dir/$label/rec"
printf '%s' "$in" > "$part/stdin.json"
env > "$part/env"
pwd > "$part/cwd"
mv "$part" "$rec"
answers="$dir/$label/answers"
for tag in $(printf '%s' "$in" | grep -o 'tag-[a-z0-9]*'); do
    if [ -f "$answers/$ev.$tag" ]; then . "$answers/$ev.$tag"; exit 0; fi
done
if [ -f "$answers/$ev.#$k" ]; then . "$answers/$ev.#$k"; exit 0; fi
if [ -f "$answers/$ev" ]; then . "$answers/$ev"; fi
exit 0
