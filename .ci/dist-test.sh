#!/usr/bin/env bash
# Tests the downloads that dist/build.sh made, each as its user would use
# it, on a fresh Debian 12 machine (it installs what it needs):
#
#   bash .ci/dist-test.sh [DIR]     (DIR: dist/build.sh's --out, target/dist)
#
# SHA256SUMS verifies; the static x86-64 binary runs with an empty
# environment (env -i) and, as root, alone in an empty root folder (no libc
# anywhere to load), the aarch64 one under qemu-aarch64 without -L (no
# aarch64 libc given); the Windows binary runs under Wine; each Linux wheel
# for x86-64 installs into a fresh virtual environment with no Rust on PATH
# and counts, and auditwheel confirms every manylinux tag; the wheels that
# cannot run here (aarch64: no aarch64 Python; Windows: no Windows Python
# under Wine) are checked by their tags, their files, and what their
# extension links against. DIST_TEST_SDIST=1 also builds the sdist into a
# wheel with pip, as a user with Rust would (minutes: see docs/downloads.md).
# Each artifact that dist/build.sh did not build is named as skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dist=$(cd "${1:-target/dist}" && pwd)
[[ -d target/dist-tools/bin ]] && PATH="$root/target/dist-tools/bin:$PATH"

version=$(cargo pkgid --offline -p queens-cli 2>/dev/null || cargo pkgid -p queens-cli)
version=${version##*[@#]}
commit=$(git rev-parse --short HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "dist-test: $*" >&2; exit 1; }
ok() { echo "dist-test: ok: $*"; }
step() { printf '\n== dist-test: %s (at %s s)\n' "$*" "$SECONDS"; }
# The one artifact matching a pattern in $dist, or nothing (not built).
artifact() {
  local found=("$dist"/$1)
  [[ -e ${found[0]} ]] || return 0
  ((${#found[@]} == 1)) || fail "more than one $1 in $dist: ${found[*]}"
  echo "${found[0]}"
}
# Exits unless the text ($1) holds the line part ($2).
expect() { grep -qF -- "$2" <<<"$1" || fail "expected '$2' in: $1"; }

tarball_x86=$(artifact "queens-$version-x86_64-unknown-linux-musl.tar.gz")
tarball_arm=$(artifact "queens-$version-aarch64-unknown-linux-musl.tar.gz")
zip_windows=$(artifact "queens-$version-x86_64-pc-windows-gnu.zip")
wheel_x86=$(artifact "queens_rs-$version-cp39-abi3-manylinux*_x86_64.whl")
wheel_arm=$(artifact "queens_rs-$version-cp39-abi3-manylinux*_aarch64.whl")
wheel_windows=$(artifact "queens_rs-$version-cp39-abi3-win_amd64.whl")
sdist=$(artifact "queens_rs-$version.tar.gz")
tarball_mac_arm=$(artifact "queens-$version-aarch64-apple-darwin.tar.gz")
tarball_mac_x86=$(artifact "queens-$version-x86_64-apple-darwin.tar.gz")
wheel_mac_arm=$(artifact "queens_rs-$version-cp39-abi3-macosx_*_arm64.whl")
wheel_mac_x86=$(artifact "queens_rs-$version-cp39-abi3-macosx_*_x86_64.whl")
# In CI every download must be there: a skip would pass what was not built.
if [[ ${CI:-} == true ]]; then
  for name in tarball_x86 tarball_arm zip_windows wheel_x86 wheel_arm wheel_windows sdist \
    tarball_mac_arm tarball_mac_x86 wheel_mac_arm wheel_mac_x86; do
    [[ -n ${!name} ]] || fail "CI=true, and $name is not in $dist: dist/build.sh builds every download"
  done
fi

step "tools"
packages=()
need() { command -v "$1" >/dev/null || packages+=("$2"); }
need file file; need readelf binutils; need unzip unzip
[[ -z $tarball_arm ]] || need qemu-aarch64 qemu-user
[[ -z $zip_windows$wheel_windows ]] || need x86_64-w64-mingw32-objdump binutils-mingw-w64-x86-64
# /usr/bin/wine is the `wine` package's; wine64 alone (without its
# recommends) has no command to run.
[[ -z $zip_windows ]] || { need wine wine; need wine wine64; need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64; }
python3 -c 'import ensurepip' 2>/dev/null || packages+=(python3-venv)
if ((${#packages[@]})); then
  echo "installing ${packages[*]}"
  sudo=""; [[ "$(id -u)" -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
command -v auditwheel >/dev/null || {
  python3 -m venv "$work/tools" && "$work/tools/bin/pip" install --quiet auditwheel==6.8.2
  PATH="$work/tools/bin:$PATH"
}

step "SHA256SUMS"
(cd "$dist" && sha256sum -c SHA256SUMS)
for file in "$tarball_x86" "$tarball_arm" "$zip_windows" "$wheel_x86" "$wheel_arm" "$wheel_windows" "$sdist" \
  "$tarball_mac_arm" "$tarball_mac_x86" "$wheel_mac_arm" "$wheel_mac_x86"; do
  [[ -z $file ]] || grep -qF "  ${file##*/}" "$dist/SHA256SUMS" || fail "SHA256SUMS does not list ${file##*/}"
done
ok "every artifact is listed and matches"

# Unpacks an archive into a folder of its own; prints the folder the
# archive keeps its files in.
unpack() { # archive
  local into=$work/unpacked/${1##*/}
  mkdir -p "$into"
  case $1 in *.zip | *.whl) unzip -q "$1" -d "$into" ;; *) tar -xzf "$1" -C "$into" ;; esac
  echo "$into"
}

# The folder a download unpacks to holds the program, the README and both
# licences, and --version names this version and commit.
check_binary_folder() { # folder, program
  for file in "$2" README.md LICENSE-MIT LICENSE-APACHE; do
    [[ -f $1/$file ]] || fail "$1 lacks $file"
  done
}

# Runs `count 14` and `--version` through the given command prefix and
# checks both: the count exits non-zero when a total differs from A000170.
check_counts() { # command...
  local said
  said=$("$@" --version)
  expect "$said" "queens $version"
  expect "$said" "commit: $commit"
  said=$("$@" count 14 -q --json)
  expect "$said" '"solutions":365596'
  expect "$said" '"matches_known":true'
}

# A static Linux binary for a machine ($2, as `file` names it): no
# program interpreter, so nothing loads a libc into it.
check_static() { # binary, machine
  expect "$(file -b "$1")" "$2"
  expect "$(file -b "$1")" "statically linked"
  local headers
  headers=$(readelf -lW "$1") || fail "readelf cannot read $1"
  ! grep -q INTERP <<<"$headers" || fail "$1 asks for a program interpreter"
}

step "static Linux x86-64 binary"
if [[ -n $tarball_x86 ]]; then
  folder=$(unpack "$tarball_x86")/queens-$version-x86_64-unknown-linux-musl
  check_binary_folder "$folder" queens
  check_static "$folder/queens" x86-64
  check_counts env -i "$folder/queens"
  if [[ "$(id -u)" -eq 0 ]]; then
    # Alone in a root folder: no /lib, no /etc, no /proc.
    jail=$work/jail; mkdir -p "$jail"; cp "$folder/queens" "$jail/"
    check_counts env -i "$(command -v chroot)" "$jail" /queens
    ok "counts alone in an empty root folder"
  else
    [[ ${CI:-} != true ]] || fail "CI=true but not root: the run alone in an empty root folder needs chroot"
    echo "dist-test: not root: the empty root folder (chroot) run is skipped"
  fi
  ok "static x86-64 binary: $(du -k "$folder/queens" | cut -f1) KiB, counts n = 14 with env -i"
else
  echo "dist-test: skipped: the static x86-64 binary was not built"
fi

step "static Linux aarch64 binary, under QEMU"
if [[ -n $tarball_arm ]]; then
  folder=$(unpack "$tarball_arm")/queens-$version-aarch64-unknown-linux-musl
  check_binary_folder "$folder" queens
  check_static "$folder/queens" "ARM aarch64"
  check_counts env -i "$(command -v qemu-aarch64)" "$folder/queens"
  ok "static aarch64 binary: $(du -k "$folder/queens" | cut -f1) KiB, counts n = 14 under qemu-aarch64"
else
  echo "dist-test: skipped: the static aarch64 binary was not built"
fi

# The DLLs a Windows program or extension imports, one a line, lower case.
# Fails where objdump finds no kernel32.dll, which every Windows program
# imports: an empty list would otherwise pass every check below.
imports() {
  local list
  list=$(x86_64-w64-mingw32-objdump -p "$1" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
  grep -qx kernel32.dll <<<"$list" || fail "objdump lists no kernel32.dll among ${1##*/}'s imports: '$list'"
  echo "$list"
}
# Windows' own DLLs, which every Windows has: a download must need no
# other (no libgcc_s, libwinpthread, a versioned python3X.dll).
system_dll='^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|msvcrt|ucrtbase|shell32|ole32|oleaut32|user32|secur32|crypt32|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'

step "Windows x86-64 binary, under Wine"
if [[ -n $zip_windows ]]; then
  folder=$(unpack "$zip_windows")/queens-$version-x86_64-pc-windows-gnu
  check_binary_folder "$folder" queens.exe
  expect "$(file -b "$folder/queens.exe")" "PE32+ executable"
  needed=$(imports "$folder/queens.exe")
  others=$(grep -Ev "$system_dll" <<<"$needed" || true)
  [[ -z $others ]] || fail "queens.exe imports DLLs Windows lacks: $others"
  # Wine 8 lacks bcryptprimitives.dll (Rust's std calls its ProcessPrng):
  # the test-harness shim of .ci/windows-bcryptprimitives.c (issue 49),
  # built here and put beside the program for this run only.
  shim=.ci/windows-bcryptprimitives.c
  [[ -f $shim ]] || fail "$shim is missing: the Windows binary cannot start under Wine 8 without it"
  run=$work/wine-run; mkdir -p "$run"; cp "$folder/queens.exe" "$run/"
  x86_64-w64-mingw32-gcc -O2 -shared -o "$run/bcryptprimitives.dll" "$shim" -ladvapi32
  export WINEPREFIX=$work/wine WINEDEBUG=-all
  wineboot --init >/dev/null 2>&1 || true
  check_counts wine "$run/queens.exe"
  ok "queens.exe: $(du -k "$folder/queens.exe" | cut -f1) KiB, imports only Windows' DLLs, counts n = 14 under Wine"
else
  echo "dist-test: skipped: the Windows binary was not built"
fi

# A fresh virtual environment whose PATH has no cargo or rustc: a folder of
# its own in front of the system's folders that have neither.
rustless_path() { # venv
  local path=$1/bin dir
  for dir in /usr/local/bin /usr/bin /bin; do
    [[ -x $dir/cargo || -x $dir/rustc ]] || path+=":$dir"
  done
  echo "$path"
}

step "manylinux wheels: auditwheel's tags"
for wheel in "$wheel_x86" "$wheel_arm"; do
  [[ -n $wheel ]] || continue
  shown=$(auditwheel show "$wheel")
  head -3 <<<"$shown"
  # The file's name claims manylinux2014 and its PEP 600 name,
  # manylinux_2_17; auditwheel names the latter.
  tags=$(sed -n 's/.*-cp39-abi3-\(.*\)\.whl$/\1/p' <<<"${wheel##*/}")
  pep600=$(tr . '\n' <<<"$tags" | grep '^manylinux_' || true)
  [[ -n $pep600 ]] || fail "${wheel##*/} claims no manylinux_X_Y tag"
  expect "$(tr -s ' \n' '  ' <<<"$shown")" "is consistent with the following platform tag: \"$pep600\""
  ok "${wheel##*/}: auditwheel grants $pep600"
done
[[ -n $wheel_x86$wheel_arm ]] || echo "dist-test: skipped: no manylinux wheel was built"

step "manylinux x86-64 wheel: a fresh venv without Rust, then a count"
if [[ -n $wheel_x86 ]]; then
  venv=$work/venv-x86
  python3 -m venv "$venv"
  (
    export PATH; PATH=$(rustless_path "$venv")
    ! command -v cargo >/dev/null || fail "cargo is still on PATH"
    pip install --quiet --no-index --disable-pip-version-check "$wheel_x86"
    said=$(python -c 'import queens; print(queens.count(12))')
    [[ $said == 14200 ]] || fail "queens.count(12) printed '$said', not 14200"
    said=$(queens count 12)
    expect "$said" "14200"
    said=$(queens --version)
    expect "$said" "$version (the Python package queens-rs"
    expect "$said" "commit: $commit"
  )
  ok "x86-64 wheel: $(du -k "$wheel_x86" | cut -f1) KiB, imports and counts n = 12, and its queens command too"
else
  echo "dist-test: skipped: the manylinux x86-64 wheel was not built"
fi

# The files a wheel must hold, with the extension's file name ($2).
check_wheel_files() { # wheel, extension
  local listing
  listing=$(unzip -Z1 "$1")
  for file in queens/__init__.py queens/_cli.py queens/py.typed "queens/$2" \
    "queens_rs-$version.dist-info/METADATA" "queens_rs-$version.dist-info/entry_points.txt"; do
    grep -qxF "$file" <<<"$listing" || fail "${1##*/} lacks $file"
  done
}

step "manylinux aarch64 wheel: files and machine (no aarch64 Python to run it here)"
if [[ -n $wheel_arm ]]; then
  check_wheel_files "$wheel_arm" _queens.abi3.so
  folder=$(unpack "$wheel_arm")
  expect "$(file -b "$folder/queens/_queens.abi3.so")" "ARM aarch64"
  ok "aarch64 wheel: $(du -k "$wheel_arm" | cut -f1) KiB, an aarch64 extension, manylinux tag confirmed"
else
  echo "dist-test: skipped: the manylinux aarch64 wheel was not built"
fi

step "Windows wheel: files, and the DLLs its extension needs (no Windows Python under Wine here)"
if [[ -n $wheel_windows ]]; then
  check_wheel_files "$wheel_windows" _queens.pyd
  folder=$(unpack "$wheel_windows")
  pyd=$folder/queens/_queens.pyd
  expect "$(file -b "$pyd")" "PE32+ executable (DLL)"
  needed=$(imports "$pyd")
  # abi3: the stable ABI's python3.dll, never a versioned python3X.dll.
  grep -qx python3.dll <<<"$needed" || fail "_queens.pyd does not import python3.dll: $needed"
  others=$(grep -Ev "$system_dll" <<<"$needed" | grep -vx python3.dll || true)
  [[ -z $others ]] || fail "_queens.pyd imports DLLs Windows lacks: $others"
  ok "Windows wheel: $(du -k "$wheel_windows" | cut -f1) KiB, imports python3.dll and Windows' own DLLs only"
else
  echo "dist-test: skipped: the Windows wheel was not built"
fi

# macOS: built by zig, not run here (no Mac, and no emulator of one): each
# holds what it should, as machine code for its CPU.
step "macOS binaries and wheels: their files and machine code (not run here)"
for pair in "arm64:$tarball_mac_arm:$wheel_mac_arm:aarch64" "x86_64:$tarball_mac_x86:$wheel_mac_x86:x86_64"; do
  IFS=: read -r machine tarball wheel arch <<<"$pair"
  if [[ -n $tarball ]]; then
    folder=$(unpack "$tarball")/queens-$version-$arch-apple-darwin
    check_binary_folder "$folder" queens
    # --version cannot run here; the commit it would name is in the binary.
    grep -qaF "$commit" "$folder/queens" || fail "the macOS $arch binary does not hold commit $commit"
    expect "$(file -b "$folder/queens")" "Mach-O 64-bit"
    expect "$(file -b "$folder/queens")" "$machine"
    ok "macOS $arch binary: $(du -k "$folder/queens" | cut -f1) KiB of $machine Mach-O, not run here"
  else
    echo "dist-test: skipped: the macOS $arch binary was not built"
  fi
  if [[ -n $wheel ]]; then
    check_wheel_files "$wheel" _queens.abi3.so
    folder=$(unpack "$wheel")
    expect "$(file -b "$folder/queens/_queens.abi3.so")" "Mach-O 64-bit"
    expect "$(file -b "$folder/queens/_queens.abi3.so")" "$machine"
    ok "macOS $arch wheel: $(du -k "$wheel" | cut -f1) KiB, an extension for $machine, not run here"
  else
    echo "dist-test: skipped: the macOS $arch wheel was not built"
  fi
done

step "sdist"
if [[ -n $sdist ]]; then
  listing=$(tar -tzf "$sdist")
  for file in Cargo.toml Cargo.lock pyproject.toml cli/build.rs python/Cargo.toml LICENSE-MIT; do
    grep -qxF "queens_rs-$version/$file" <<<"$listing" || fail "the sdist lacks $file"
  done
  # The extension type-checks from the sdist's sources alone, as cargo
  # reads them when pip builds it (a file a manifest names but the sdist
  # lacks fails here). The checkout's build folder lends the dependencies
  # already checked: seconds, where pip's whole build takes minutes.
  sources=$(unpack "$sdist")/queens_rs-$version
  CARGO_TARGET_DIR=$PWD/target cargo check --quiet --offline --locked -p queens-python --lib \
    --manifest-path "$sources/python/Cargo.toml" || fail "the sdist's sources do not build: pip could not build it"
  ok "the sdist's sources type-check on their own"
  if [[ ${DIST_TEST_SDIST:-0} == 1 ]]; then
    # As a user with Rust would: pip builds it with maturin (the build
    # backend) and cargo, in a fresh virtual environment.
    venv=$work/venv-sdist
    python3 -m venv "$venv"
    start=$SECONDS
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$sdist"
    said=$("$venv/bin/python" -c 'import queens; print(queens.count(12))')
    [[ $said == 14200 ]] || fail "queens.count(12) from the sdist printed '$said'"
    # No git around the unpacked sources: the commit is not known, and
    # the wheel must not claim one.
    expect "$("$venv/bin/queens" --version)" "commit: unknown"
    ok "the sdist builds into a wheel that counts ($((SECONDS - start)) s)"
  else
    echo "dist-test: the sdist's files are there; DIST_TEST_SDIST=1 also builds it"
  fi
else
  echo "dist-test: skipped: the sdist was not built"
fi

echo
echo "dist-test: all checks passed in $SECONDS s"
