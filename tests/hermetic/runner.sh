#!/bin/sh
# cargo's runner for every binary it runs (.cargo/config.toml). A test binary
# (target/*/deps/*) runs in a mount namespace of its own whose user has a fresh, empty home:
# both `HOME` and the account's home (`getpwuid`, which `hookx run`/`exec` take, not $HOME) name
# it, through an account database of the namespace's own. No test reads the developer's real
# home (their ~/.codex/config.toml, ~/.gitconfig, ~/.hookx) or writes there, nor shares state
# there with another test run. When the binary ends, anything written in that home fails the
# run, named: a test must give each command a home of its own (`HOME`, and `--home` for hookx
# run). Other binaries (`cargo run`) run as they are. Needs root (a mount namespace); without
# it the binary runs unguarded, and tests/hermetic.rs fails saying so.
case "$1" in
*/deps/*) ;;
*) exec "$@" ;;
esac
uid=$(id -u)
if [ "$uid" != 0 ] || ! command -v unshare >/dev/null; then
    exec "$@"
fi
private=$(mktemp -d "${TMPDIR:-/tmp}/hookx-hermetic.XXXXXX") || exit 101
mkdir "$private/home" || exit 101
# What the tests run with stays where it is: the live suites' clients, and the Rust toolchain
# (insta runs `cargo metadata`, and rustup's proxy would set itself up again in the new home).
real=${HOME:-$(getent passwd "$uid" | cut -d: -f6)}
HOOKX_CLIENTS=${HOOKX_CLIENTS:-$real/.cache/hookx-conformance}
export HOOKX_CLIENTS
if [ -z "$RUSTUP_HOME" ] && [ -d "$real/.rustup" ]; then export RUSTUP_HOME="$real/.rustup"; fi
if [ -z "$CARGO_HOME" ] && [ -d "$real/.cargo" ]; then export CARGO_HOME="$real/.cargo"; fi
# This user's entry names the private home; the file alone answers for accounts (an NSS
# module beside it, systemd's, would still give root its real home).
awk -F: -v OFS=: -v uid="$uid" -v home="$private/home" '
    $3 == uid { $6 = home; found = 1 } { print }
    END { if (!found) print "me:x:" uid ":" uid "::" home ":/bin/sh" }' /etc/passwd \
    >"$private/passwd" || exit 101
sed 's/^passwd:.*/passwd: files/' /etc/nsswitch.conf >"$private/nsswitch.conf" 2>/dev/null ||
    echo 'passwd: files' >"$private/nsswitch.conf"
HOME="$private/home" unshare --mount --propagation private -- sh -c \
    'mount --bind "$0" /etc/passwd && mount --bind "$1" /etc/nsswitch.conf && shift && exec "$@"' \
    "$private/passwd" "$private/nsswitch.conf" "$@"
code=$?
if [ -n "$(ls -A "$private/home")" ]; then
    echo "hermetic: ${1##*/} wrote in the home it was given (HOME and the account's, a private" \
        "folder here, but a test must give each command a home of its own: HOME, and --home" \
        "for hookx run):" >&2
    (cd "$private/home" && find . -mindepth 1 | sort | head -50) >&2
    [ "$code" = 0 ] && code=101
fi
rm -rf "$private"
exit "$code"
