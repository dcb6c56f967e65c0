#!/bin/sh
# qiwang installer for Linux and macOS (published with each release as
# qiwang-installer.sh; docs/install.md). It picks the archive of this system
# (qiwang-VERSION-TARGET.tar.gz), checks it against its .sha256 file and refuses to install
# anything if they differ, then puts `qiwang` in PREFIX/bin and the guides and rulebook
# presets in PREFIX/share/qiwang, and runs `qiwang --version`.
#
# Where the archive comes from, first match wins:
#   --from DIR     an archive and its .sha256 in DIR (offline: downloaded beforehand or
#                  copied from a USB stick); without --from, the installer's own folder
#                  and the current folder are looked in first
#   --from URL     downloaded from URL/qiwang-VERSION-TARGET.tar.gz (curl or wget)
#   the release the installer was published with (its address is written into the
#   published copy: QIWANG_BASE_URL and QIWANG_VERSION below)
#
#   sh qiwang-installer.sh [--prefix DIR] [--from DIR|URL] [--version V] [--uninstall]
#
# PREFIX defaults to ~/.local (no administrator rights needed). Environment variables
# QIWANG_PREFIX, QIWANG_BASE_URL and QIWANG_VERSION set the same as the options.
#
# 安装：sh qiwang-installer.sh ；卸载：sh qiwang-installer.sh --uninstall
set -eu

# Written by .ci/installers into the published copy; empty here.
base_url="${QIWANG_BASE_URL:-}"
version="${QIWANG_VERSION:-}"
prefix="${QIWANG_PREFIX:-${HOME:-}/.local}"
from=""
uninstall=no

say() { printf '%s\n' "$*"; }
fail() { printf 'qiwang-installer: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || fail "--prefix needs a folder"; prefix="$2"; shift 2 ;;
        --from) [ $# -ge 2 ] || fail "--from needs a folder or an address"; from="$2"; shift 2 ;;
        --version) [ $# -ge 2 ] || fail "--version needs a version"; version="${2#v}"; shift 2 ;;
        --uninstall) uninstall=yes; shift ;;
        -h|--help)
            say "usage: sh qiwang-installer.sh [--prefix DIR] [--from DIR|URL] [--version V] [--uninstall]"
            say "  --prefix DIR   install into DIR/bin and DIR/share/qiwang (default ~/.local)"
            say "  --from DIR     use the archive and its .sha256 in DIR"
            say "  --from URL     download them from URL"
            exit 0 ;;
        *) fail "unknown option: $1 (see --help)" ;;
    esac
done
[ -n "$prefix" ] || fail "no home folder: give --prefix DIR"

if [ "$uninstall" = yes ]; then
    rm -f "$prefix/bin/qiwang"
    rm -rf "$prefix/share/qiwang"
    say "已卸载 qiwang / qiwang removed from $prefix"
    exit 0
fi

# The targets this system runs, best first.
os="$(uname -s)"
arch="$(uname -m)"
case "$os/$arch" in
    Linux/x86_64|Linux/amd64) targets="x86_64-unknown-linux-musl x86_64-unknown-linux-gnu" ;;
    Darwin/arm64|Darwin/aarch64) targets="aarch64-apple-darwin x86_64-apple-darwin" ;;
    Darwin/x86_64) targets="x86_64-apple-darwin" ;;
    *) fail "no ready-made qiwang for $os/$arch; with Rust: cargo install --locked qiwang's repository (docs/install.md)" ;;
esac

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
    else fail "neither sha256sum nor shasum is installed: cannot check the archive"; fi
}

fetch() { # URL FILE
    if command -v curl >/dev/null 2>&1; then curl --proto '=https,http' -fsSL "$1" -o "$2"
    elif command -v wget >/dev/null 2>&1; then wget -q -O "$2" "$1"
    else fail "neither curl nor wget is installed: download the archive by hand and use --from DIR"; fi
}

work="$(mktemp -d "${TMPDIR:-/tmp}/qiwang-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# An archive of one of the targets in folder $1 (the exact version if one is given).
find_local() {
    for t in $targets; do
        if [ -n "$version" ]; then
            candidate="$1/qiwang-$version-$t.tar.gz"
            [ -f "$candidate" ] && { printf '%s\n' "$candidate"; return 0; }
        else
            # The newest version present, by name.
            candidate="$(ls "$1"/qiwang-*-"$t".tar.gz 2>/dev/null | sort | tail -n 1 || true)"
            [ -n "$candidate" ] && { printf '%s\n' "$candidate"; return 0; }
        fi
    done
    return 1
}

download() { # BASE: downloads into $work, prints the archive's path
    [ -n "$version" ] || fail "give the version to download with --version V"
    for t in $targets; do
        name="qiwang-$version-$t.tar.gz"
        if fetch "$1/$name" "$work/$name" 2>/dev/null; then
            fetch "$1/$name.sha256" "$work/$name.sha256" || fail "no $name.sha256 at $1: not installing an unchecked archive"
            printf '%s\n' "$work/$name"
            return 0
        fi
    done
    fail "no archive for $targets at $1"
}

archive=""
case "$from" in
    http://*|https://*) archive="$(download "${from%/}")" ;;
    "")
        here="$(cd "$(dirname "$0")" 2>/dev/null && pwd || true)"
        for dir in "$here" "$(pwd)"; do
            [ -n "$dir" ] && archive="$(find_local "$dir" || true)"
            [ -n "$archive" ] && break
        done
        if [ -z "$archive" ]; then
            [ -n "$base_url" ] || fail "no qiwang archive for this system here; give --from DIR or --from URL"
            archive="$(download "${base_url%/}")"
        fi ;;
    *)
        [ -d "$from" ] || fail "--from $from: no such folder"
        archive="$(find_local "$from")" || fail "no archive for $targets in $from" ;;
esac

# The check: the archive's SHA-256 must be the one its .sha256 file names.
[ -f "$archive.sha256" ] || fail "$archive.sha256 is missing: not installing an unchecked archive"
expected="$(cut -d' ' -f1 < "$archive.sha256" | tr 'A-F' 'a-f')"
actual="$(sha256_of "$archive")"
[ -n "$expected" ] && [ "$expected" = "$actual" ] ||
    fail "校验失败 / checksum mismatch for $(basename "$archive"): expected $expected, got $actual; nothing was installed"
say "校验通过 / checksum ok: $(basename "$archive")"

tar -xzf "$archive" -C "$work"
unpacked="$work/$(basename "$archive" .tar.gz)"
[ -x "$unpacked/qiwang" ] || fail "the archive holds no qiwang program"

mkdir -p "$prefix/bin" "$prefix/share/qiwang"
# Replaced by a rename, so a qiwang running from there keeps its old file.
cp "$unpacked/qiwang" "$prefix/bin/.qiwang.new"
chmod 755 "$prefix/bin/.qiwang.new"
mv -f "$prefix/bin/.qiwang.new" "$prefix/bin/qiwang"
rm -rf "$prefix/share/qiwang"
mkdir -p "$prefix/share/qiwang"
for item in README.md CHANGELOG.md docs rules; do
    [ -e "$unpacked/$item" ] && cp -R "$unpacked/$item" "$prefix/share/qiwang/"
done

installed="$("$prefix/bin/qiwang" --version)" || fail "the installed program does not run on this system"
say "已安装 / installed: $installed → $prefix/bin/qiwang"
say "说明与规则模板 / guides and rulebook presets: $prefix/share/qiwang"
case ":${PATH:-}:" in
    *":$prefix/bin:"*) say "试一试 / try it: qiwang demo" ;;
    *) say "请把 $prefix/bin 加入 PATH / add $prefix/bin to your PATH, e.g.:"
       say "  echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.profile"
       say "试一试 / try it: $prefix/bin/qiwang demo" ;;
esac
