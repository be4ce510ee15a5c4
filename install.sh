#!/bin/sh
# pig installer for Linux and macOS: downloads the release archive for this machine, checks its
# SHA-256 sum against the release's SHA256SUMS, and installs the pig binary into ~/.local/bin
# (or --prefix DIR / PIG_INSTALL_DIR). Nothing is replaced until the new binary is checked, and
# it goes in by a rename, so a failed install leaves the pig that was there working.
#
#   curl -fsSL https://github.com/pig-coding-agent/pig/releases/latest/download/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- --version 1.2.0 --prefix /opt/pig/bin
#   sh install.sh --prefix DIR
#
# Environment: PIG_VERSION (a version instead of the newest), PIG_INSTALL_DIR (instead of
# ~/.local/bin), PIG_RELEASE_URL (where releases are; GitHub's layout:
# <url>/latest/download/<file>, <url>/download/v<version>/<file>).
set -eu

say() { printf '%s\n' "$*"; }
fail() {
  printf 'pig install: %s\n' "$*" >&2
  exit 1
}

usage() {
  cat <<'USAGE'
Usage: sh install.sh [--version X.Y.Z] [--prefix DIR]

  --version X.Y.Z   install this version (default: the newest; also PIG_VERSION)
  --prefix DIR      install the pig binary into DIR (default: ~/.local/bin; also PIG_INSTALL_DIR)
  -h, --help        this help

PIG_RELEASE_URL names where the releases are (default: https://github.com/pig-coding-agent/pig/releases).
USAGE
}

release_url="${PIG_RELEASE_URL:-https://github.com/pig-coding-agent/pig/releases}"
release_url="${release_url%/}"
case "$release_url" in
  *\"* | *\\* | *' '*) fail "PIG_RELEASE_URL=$release_url: not a URL" ;;
esac
version="${PIG_VERSION:-}"
prefix="${PIG_INSTALL_DIR:-}"

while [ $# -gt 0 ]; do
  case "$1" in
    --version)
      [ $# -ge 2 ] || fail "--version needs a value (e.g. --version 1.2.0)"
      version="$2"
      shift 2
      ;;
    --version=*)
      version="${1#--version=}"
      shift
      ;;
    --prefix)
      [ $# -ge 2 ] || fail "--prefix needs a directory"
      prefix="$2"
      shift 2
      ;;
    --prefix=*)
      prefix="${1#--prefix=}"
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      fail "unknown argument: $1"
      ;;
  esac
done

version="${version#v}"
if [ -n "$version" ]; then
  case "$version" in
    *[!0-9A-Za-z.-]* | .* | -*) fail "--version $version: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)" ;;
  esac
  case "$version" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) fail "--version $version: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)" ;;
  esac
fi

if [ -z "$prefix" ]; then
  [ -n "${HOME:-}" ] || fail "HOME is not set: name the directory to install into with --prefix DIR"
  prefix="$HOME/.local/bin"
fi
case "$prefix" in
  /*) ;;
  *) prefix="$(pwd)/$prefix" ;;
esac

# --- which release file fits this machine ---------------------------------------------------

uname_s="$(uname -s 2>/dev/null || echo unknown)"
uname_m="$(uname -m 2>/dev/null || echo unknown)"
case "$uname_s" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT)
    fail "this is Windows ($uname_s): install with PowerShell instead: powershell -c \"irm $release_url/latest/download/install.ps1 | iex\""
    ;;
  *) fail "unsupported platform: $uname_s $uname_m (pig is released for Linux and macOS on x86-64 and ARM64, and Windows on x86-64; build it from source: https://github.com/pig-coding-agent/pig)" ;;
esac
case "$uname_m" in
  x86_64 | amd64) cpu=x64 ;;
  aarch64 | arm64) cpu=arm64 ;;
  *) fail "unsupported platform: $uname_s $uname_m (pig is released for x86-64 and ARM64 CPUs; build it from source: https://github.com/pig-coding-agent/pig)" ;;
esac
# A shell under Rosetta on an Apple silicon Mac says x86_64: the native binary is the better one.
if [ "$os" = darwin ] && [ "$cpu" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
  cpu=arm64
fi

libc=""
if [ "$os" = linux ]; then
  # glibc answers getconf; musl's ldd names itself. A glibc system may have musl's loader
  # installed beside it, so the loader's presence counts only when glibc did not answer.
  if getconf GNU_LIBC_VERSION >/dev/null 2>&1; then
    libc=""
  elif (ldd --version 2>&1 || true) | grep -qi musl; then
    libc="-musl"
  elif ls /lib/ld-musl-* >/dev/null 2>&1; then
    libc="-musl"
  fi
fi

target="$os-$cpu$libc"
archive="pig-$target.tar.gz"
if [ -n "$version" ]; then
  base="$release_url/download/v$version"
  what="pig $version"
else
  base="$release_url/latest/download"
  what="the newest pig"
fi

# --- tools ----------------------------------------------------------------------------------

# download URL FILE: the program's own complaint goes to $tmp/download.err, for the message.
if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL --retry 2 -o "$2" "$1" 2>"$tmp/download.err"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -nv -O "$2" "$1" 2>"$tmp/download.err"; }
else
  fail "neither curl nor wget is installed: install one of them and run this again"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256_of() { sha256sum "$1" | awk '{print $1}'; }
elif command -v shasum >/dev/null 2>&1; then
  sha256_of() { shasum -a 256 "$1" | awk '{print $1}'; }
elif command -v openssl >/dev/null 2>&1; then
  sha256_of() { openssl dgst -sha256 "$1" | awk '{print $NF}'; }
else
  fail "no program to check a SHA-256 sum (sha256sum, shasum or openssl): install one of them and run this again"
fi
command -v tar >/dev/null 2>&1 || fail "tar is not installed: install it and run this again"

# --- download and check --------------------------------------------------------------------

# The temporary files are private; what is installed gets the user's usual permissions back.
user_umask="$(umask)"
umask 077
tmp="$(mktemp -d 2>/dev/null || mktemp -d -t pig-install)" || fail "could not create a temporary directory"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

say "Installing $what for $target into $prefix"

why() { head -n 2 "$tmp/download.err" | tr '\n' ' ' | sed 's/ *$//'; }
download "$base/SHA256SUMS" "$tmp/SHA256SUMS" || fail "download failed: $base/SHA256SUMS ($(why))"
download "$base/$archive" "$tmp/$archive" || fail "download failed: $base/$archive ($(why); is pig released for $target?)"

expected="$(awk -v name="$archive" '$2 == name || $2 == ("*" name) { print $1; exit }' "$tmp/SHA256SUMS")"
[ -n "$expected" ] || fail "$base/SHA256SUMS has no sum for $archive"
actual="$(sha256_of "$tmp/$archive")"
expected="$(printf '%s' "$expected" | tr 'A-F' 'a-f')"
actual="$(printf '%s' "$actual" | tr 'A-F' 'a-f')"
if [ "$expected" != "$actual" ]; then
  fail "wrong checksum for $archive: SHA256SUMS says $expected, the download is $actual (nothing was installed)"
fi

mkdir "$tmp/unpacked"
if ! tar -xzf "$tmp/$archive" -C "$tmp/unpacked" pig 2>"$tmp/tar.err"; then
  fail "corrupted archive $archive: $(head -n 3 "$tmp/tar.err" | tr '\n' ' ')(nothing was installed)"
fi
new="$tmp/unpacked/pig"
if [ -h "$new" ] || [ ! -f "$new" ]; then
  fail "corrupted archive $archive: it holds no pig program (nothing was installed)"
fi
chmod 755 "$new"
if ! reported="$("$new" --version 2>"$tmp/run.err")"; then
  fail "the downloaded pig does not run on this machine ($target): $(head -n 3 "$tmp/run.err" | tr '\n' ' ')(nothing was installed)"
fi
installed_version="$(printf '%s\n' "$reported" | head -n 1)"
if [ -n "$version" ] && [ "$installed_version" != "$version" ]; then
  fail "the downloaded pig says it is $installed_version, not $version (nothing was installed)"
fi

# --- install -------------------------------------------------------------------------------

umask "$user_umask"
if ! mkdir -p "$prefix" 2>/dev/null; then
  fail "no write permission: cannot create $prefix (choose another directory with --prefix DIR)"
fi
if [ ! -w "$prefix" ]; then
  fail "no write permission on $prefix (choose another directory with --prefix DIR, or run as a user who can write there)"
fi
if [ -d "$prefix/pig" ]; then
  fail "$prefix/pig is a directory: move it away or choose another directory with --prefix DIR"
fi

# Written beside the target and renamed over it: a rename in one directory is atomic, so pig is
# either the old binary or the whole new one, even when this is cut short.
staged="$prefix/.pig.new.$$"
if ! cp "$new" "$staged" 2>/dev/null; then
  rm -f "$staged"
  fail "no write permission on $prefix, or it is full (nothing was installed)"
fi
chmod 755 "$staged"
sync "$staged" 2>/dev/null || sync
if ! mv -f "$staged" "$prefix/pig"; then
  rm -f "$staged"
  fail "could not move the new pig into $prefix/pig (the old one, if any, is unchanged)"
fi

# The receipt tells `pig update` that this installer put pig here, for which target and from
# where; it lives beside the binary, so each directory installed into has its own.
receipt_staged="$prefix/.pig-install.json.new.$$"
cat >"$receipt_staged" <<RECEIPT
{
  "installedBy": "install.sh",
  "binary": "pig",
  "target": "$target",
  "version": "$installed_version",
  "releaseUrl": "$release_url"
}
RECEIPT
chmod 644 "$receipt_staged"
mv -f "$receipt_staged" "$prefix/.pig-install.json" || fail "installed $prefix/pig, but could not write $prefix/.pig-install.json (pig update will not know how pig was installed)"

say "Installed pig $installed_version to $prefix/pig"

case ":${PATH:-}:" in
  *":$prefix:"* | *":$prefix/:"*) say "Run: pig --help" ;;
  *)
    shell_name="$(basename "${SHELL:-sh}")"
    say ""
    say "$prefix is not on your PATH. To add it, run:"
    case "$shell_name" in
      bash) say "  echo 'export PATH=\"$prefix:\$PATH\"' >> ~/.bashrc && . ~/.bashrc" ;;
      zsh) say "  echo 'export PATH=\"$prefix:\$PATH\"' >> ~/.zshrc && . ~/.zshrc" ;;
      fish) say "  fish_add_path $prefix" ;;
      *) say "  echo 'export PATH=\"$prefix:\$PATH\"' >> ~/.profile && . ~/.profile" ;;
    esac
    say "Then run: pig --help"
    ;;
esac
