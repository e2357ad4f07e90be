#!/bin/sh
# cargo's runner for every binary it runs (.cargo/config.toml). A test binary
# (target/*/deps/*) runs in a mount namespace of its own where the account's ~/.hookx (the
# home `hookx run`/`exec` take from getpwuid, not from $HOME) is a fresh empty folder: no test
# reads or writes the developer's real ~/.hookx, nor shares state there with another test run.
# When the binary ends, anything hookx left in that folder fails the run, named: a test that
# runs hookx on the account's home must give it a home of its own (`--home`). Other binaries
# (`cargo run`) run as they are. Needs root (a mount namespace); without it the binary runs
# unguarded, and tests/hermetic.rs fails saying so.
case "$1" in
*/deps/*) ;;
*) exec "$@" ;;
esac
home=$(getent passwd "$(id -u)" | cut -d: -f6)
if [ "$(id -u)" != 0 ] || [ -z "$home" ] || ! command -v unshare >/dev/null; then
    exec "$@"
fi
private=$(mktemp -d "${TMPDIR:-/tmp}/hookx-hermetic.XXXXXX") || exit 101
mkdir -p "$home/.hookx" || exit 101
unshare --mount --propagation private -- sh -c \
    'mount --bind "$0" "$1" && shift && exec "$@"' "$private" "$home/.hookx" "$@"
code=$?
if [ -n "$(ls -A "$private")" ]; then
    echo "hermetic: ${1##*/} made hookx write in the account's $home/.hookx (a private copy" \
        "here, but a test must pass --home to hookx run/exec):" >&2
    ls -lA "$private" >&2
    [ "$code" = 0 ] && code=101
fi
rm -rf "$private"
exit "$code"
