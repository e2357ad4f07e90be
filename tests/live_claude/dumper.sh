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
rec="$dir/$label/rec/$(printf %03d "$n").$ev"
mkdir -p "$rec"
printf '%s' "$in" > "$rec/stdin.json"
env > "$rec/env"
pwd > "$rec/cwd"
answers="$dir/$label/answers"
for tag in $(printf '%s' "$in" | grep -o 'tag-[a-z0-9]*'); do
    if [ -f "$answers/$ev.$tag" ]; then . "$answers/$ev.$tag"; exit 0; fi
done
if [ -f "$answers/$ev.#$k" ]; then . "$answers/$ev.#$k"; exit 0; fi
if [ -f "$answers/$ev" ]; then . "$answers/$ev"; fi
exit 0
