#!/usr/bin/env bash
# The downloads, from one command (docs/downloads.md says what each is for):
#
#   bash dist/build.sh [--out DIR] [--profile PROFILE] [--only LIST] [--allow-dirty]
#
# into target/dist (or DIR):
#   queens-V-x86_64-unknown-linux-musl.tar.gz    linux-x86_64    static binary
#   queens-V-aarch64-unknown-linux-musl.tar.gz   linux-aarch64   static binary
#   queens-V-x86_64-pc-windows-gnu.zip           windows-x86_64  queens.exe
#   queens-V-aarch64-apple-darwin.tar.gz         macos-aarch64   built, not run here
#   queens-V-x86_64-apple-darwin.tar.gz          macos-x86_64    built, not run here
#   queens_rs-V-cp39-abi3-manylinux*_x86_64.whl   wheel-linux-x86_64
#   queens_rs-V-cp39-abi3-manylinux*_aarch64.whl  wheel-linux-aarch64
#   queens_rs-V-cp39-abi3-win_amd64.whl           wheel-windows-x86_64
#   queens_rs-V-cp39-abi3-macosx_*_arm64.whl      wheel-macos-aarch64   built, not run here
#   queens_rs-V-cp39-abi3-macosx_*_x86_64.whl     wheel-macos-x86_64    built, not run here
#   queens_rs-V.tar.gz                            sdist
#   SHA256SUMS                                    of every artifact of version V there
#
# --only takes a comma-separated list of the names above, or the groups
# `linux` (all but the Windows and macOS ones), `macos`, `binaries`,
# `wheels`. --profile is cargo's profile for the binaries and wheels: `release` (the default; the
# wheels then take pyproject.toml's `python`, release code that unwinds) is
# what is shipped, and what CI builds and tests. A tree with uncommitted changes is refused unless
# --allow-dirty, since every artifact names the commit it is built from.
#
# The tools are cargo-zigbuild (zig as the C compiler and linker of the
# static musl binaries and of the manylinux wheels), mingw-w64 for Windows,
# and maturin for the wheels and the sdist; dist/tools.sh installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never
[[ -d target/dist-tools/bin ]] && PATH="$root/target/dist-tools/bin:$PATH"

all=(linux-x86_64 linux-aarch64 windows-x86_64 macos-aarch64 macos-x86_64 wheel-linux-x86_64
  wheel-linux-aarch64 wheel-windows-x86_64 wheel-macos-aarch64 wheel-macos-x86_64 sdist)
out=target/dist profile=release only=all allow_dirty=0
while (($#)); do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --profile) profile=${2:?--profile needs a cargo profile}; shift 2 ;;
    --only) only=${2:?--only needs a list}; shift 2 ;;
    --allow-dirty) allow_dirty=1; shift ;;
    -h | --help) sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "dist/build.sh: unknown argument '$1' (--help lists them)" >&2; exit 2 ;;
  esac
done

wanted=()
for name in ${only//,/ }; do
  case $name in
    all) wanted+=("${all[@]}") ;;
    linux) wanted+=(linux-x86_64 linux-aarch64 wheel-linux-x86_64 wheel-linux-aarch64 sdist) ;;
    binaries) wanted+=(linux-x86_64 linux-aarch64 windows-x86_64 macos-aarch64 macos-x86_64) ;;
    wheels) wanted+=(wheel-linux-x86_64 wheel-linux-aarch64 wheel-windows-x86_64 wheel-macos-aarch64
      wheel-macos-x86_64) ;;
    macos) wanted+=(macos-aarch64 macos-x86_64 wheel-macos-aarch64 wheel-macos-x86_64) ;;
    *) [[ " ${all[*]} " == *" $name "* ]] ||
      { echo "dist/build.sh: no artifact '$name' (one of: ${all[*]}, linux, macos, binaries, wheels)" >&2; exit 2; }
      wanted+=("$name") ;;
  esac
done

need() {
  command -v "$1" >/dev/null ||
    { echo "dist/build.sh: $1 is not installed (bash dist/tools.sh installs what the build needs)" >&2; exit 1; }
}
need cargo; need git

if ((!allow_dirty)) && [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
  echo "dist/build.sh: the tree has uncommitted changes, which the artifacts' commit would not show;" \
    "commit them, or pass --allow-dirty" >&2
  exit 1
fi

version=$(cargo pkgid --offline -p queens-cli 2>/dev/null || cargo pkgid -p queens-cli)
version=${version##*[@#]}
commit=$(git rev-parse --short HEAD)
# The archives' timestamps: the commit's, so that a rebuild of the same
# commit gives the same bytes where the compilers do.
export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
# cargo puts profile `dev` in debug/, every other in a folder of its name.
profile_dir=$profile; [[ $profile == dev ]] && profile_dir=debug
# A wheel is loaded into Python: it must unwind (see `python` in Cargo.toml).
wheel_profile=$profile; [[ $profile == release ]] && wheel_profile=python

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
times=()

step() { printf '\n== dist: %s (at %s s)\n' "$*" "$SECONDS"; }
timed() { local start=$SECONDS; "$@"; times+=("$(printf '%-22s %4d s' "$name" $((SECONDS - start)))"); }

# The binary's folder: the program, the README and the licences.
stage_binary() { # folder, binary
  rm -rf "${stage:?}/$1"; mkdir -p "$stage/$1"
  cp "$2" README.md LICENSE-MIT LICENSE-APACHE "$stage/$1/"
  touch -d "@$SOURCE_DATE_EPOCH" "$stage/$1" "$stage/$1"/*
}

zig_binary() { # target: a static Linux binary, or a macOS one
  local folder=queens-$version-$1
  need cargo-zigbuild
  cargo zigbuild --locked --profile "$profile" -p queens-cli --bin queens --target "$1"
  stage_binary "$folder" "target/$1/$profile_dir/queens"
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$folder" |
    gzip -n -9 >"$out/$folder.tar.gz"
}

windows_binary() {
  local target=x86_64-pc-windows-gnu folder=queens-$version-x86_64-pc-windows-gnu
  need x86_64-w64-mingw32-gcc; need zip
  cargo build --locked --profile "$profile" -p queens-cli --bin queens --target $target
  stage_binary "$folder" "target/$target/$profile_dir/queens.exe"
  rm -f "$out/$folder.zip"
  (cd "$stage" && zip -q -X -r "$out/$folder.zip" "$folder")
}

# maturin names the wheel; the glob finds the one this build wrote.
wheel() { # target, then maturin's own arguments
  local target=$1; shift
  need maturin
  rm -rf "$stage/wheel"
  maturin build --locked --manifest-path python/Cargo.toml --profile "$wheel_profile" \
    --target "$target" --out "$stage/wheel" "$@"
  local built=("$stage"/wheel/queens_rs-"$version"-*.whl)
  ((${#built[@]} == 1)) || { echo "dist/build.sh: expected one wheel, found: ${built[*]}" >&2; exit 1; }
  cp "${built[0]}" "$out/"
}

sdist() {
  need maturin
  rm -rf "$stage/sdist"
  maturin sdist --manifest-path python/Cargo.toml --out "$stage/sdist"
  cp "$stage"/sdist/queens_rs-"$version".tar.gz "$out/"
}

for name in "${wanted[@]}"; do
  step "$name ($profile, $version, $commit)"
  case $name in
    linux-x86_64) timed zig_binary x86_64-unknown-linux-musl ;;
    linux-aarch64) timed zig_binary aarch64-unknown-linux-musl ;;
    # zig links macOS programs without Apple's SDK (its own stubs of the
    # system's libraries): built here, never run here.
    macos-aarch64) timed zig_binary aarch64-apple-darwin ;;
    macos-x86_64) timed zig_binary x86_64-apple-darwin ;;
    windows-x86_64) timed windows_binary ;;
    # manylinux2014 (glibc 2.17): what Rust's std needs at least, so the
    # wheel installs on every Linux that Rust runs on. zig links against
    # that glibc's symbols, auditwheel checks it (.ci/dist-test.sh).
    wheel-linux-x86_64) timed wheel x86_64-unknown-linux-gnu --zig --compatibility manylinux2014 ;;
    wheel-linux-aarch64) timed wheel aarch64-unknown-linux-gnu --zig --compatibility manylinux2014 ;;
    wheel-windows-x86_64) timed wheel x86_64-pc-windows-gnu ;;
    wheel-macos-aarch64) timed wheel aarch64-apple-darwin --zig ;;
    wheel-macos-x86_64) timed wheel x86_64-apple-darwin --zig ;;
    sdist) timed sdist ;;
  esac
done

step "SHA256SUMS"
(
  cd "$out"
  sums=()
  for file in queens-"$version"-*.tar.gz queens-"$version"-*.zip queens_rs-"$version"-*.whl \
    queens_rs-"$version".tar.gz; do
    [[ -f $file ]] && sums+=("$file")
  done
  sha256sum "${sums[@]}" >SHA256SUMS
  cat SHA256SUMS
)
printf '\ndist: built in %s (%s), seconds each:\n' "$out" "$profile"
printf '  %s\n' "${times[@]}"
