#!/usr/bin/env bash
# Builds the C library and installs it, with its headers, a pkg-config file and a CMake
# package, under a prefix. Run ./install.sh --help for the usage.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: ./install.sh [--help] PREFIX

Builds rapidpqp's C library (cargo, release profile) and installs into PREFIX:

  lib/librapidpqp.so.X.Y.Z        the shared library (SONAME librapidpqp.so.0.MINOR for 0.x,
  lib/librapidpqp.so.<SONAME>     librapidpqp.so.MAJOR from 1.0), with the SONAME link and the
  lib/librapidpqp.so              link for -lrapidpqp
  lib/librapidpqp.a               the static library
  include/rapidpqp/               every header of include/ (rapidpqp.h; RAPID.H, PQP.h,
                                  VCollide.H and the other legacy C++ headers)
  lib/pkgconfig/rapidpqp.pc       pkg-config: `pkg-config --cflags --libs rapidpqp`
                                  (--static adds -lm -lpthread -ldl)
  lib/cmake/rapidpqp/             CMake package: find_package(rapidpqp), target
                                  rapidpqp::rapidpqp (shared; set RAPIDPQP_STATIC to ON
                                  before find_package for the static library)
  bin/rapidpqp                    the command-line tool

PREFIX must be an absolute path without white space or quotes, e.g. ~/.local or /usr/local.
Running it again updates the installation in place.

Environment:
  DESTDIR   stage the installation under DESTDIR (files go to DESTDIR/PREFIX; the paths
            written into rapidpqp.pc are PREFIX's)
  CARGO     the cargo program (default: cargo on PATH)

Afterwards, for a PREFIX the tools do not search by default:
  export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig:$PKG_CONFIG_PATH
  export LD_LIBRARY_PATH=PREFIX/lib:$LD_LIBRARY_PATH     # or link with -Wl,-rpath,PREFIX/lib
  cmake -DCMAKE_PREFIX_PATH=PREFIX ...
EOF
}

die() {
    echo "install.sh: $*" >&2
    exit 1
}

prefix=""
for arg in "$@"; do
    case "$arg" in
    -h | --help)
        usage
        exit 0
        ;;
    -*) die "unknown option $arg (see ./install.sh --help)" ;;
    *)
        [ -z "$prefix" ] || die "one PREFIX only, got '$prefix' and '$arg' (see ./install.sh --help)"
        prefix=$arg
        ;;
    esac
done
[ -n "$prefix" ] || {
    usage >&2
    exit 2
}
case "$prefix" in
/*) ;;
*) die "PREFIX must be an absolute path, got '$prefix'" ;;
esac
case "$prefix" in
*[[:space:]\$\"\'\\]*) die "PREFIX must not contain white space, quotes, \$ or \\ (rapidpqp.pc could not say it), got '$prefix'" ;;
esac
# Strip trailing slashes (but keep "/").
while [ "${prefix%/}" != "$prefix" ] && [ "$prefix" != "/" ]; do prefix=${prefix%/}; done
[ "$(uname -s)" = Linux ] || die "only Linux is supported (the library is versioned with an ELF SONAME)"

cargo=${CARGO:-cargo}
for tool in "$cargo" install ln objdump strip; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found on PATH (cargo: a Rust toolchain from https://rustup.rs; objdump, strip: binutils)"
done

dest="${DESTDIR:-}$prefix"
if [ -e "$dest" ] && [ ! -d "$dest" ]; then
    die "$dest exists and is not a directory"
fi
# An unusable prefix fails now, before the build.
install -d "$dest" 2>/dev/null || die "cannot create the directory $dest"
[ -w "$dest" ] || die "cannot write to $dest (another PREFIX, or run as its owner)"
dest=$(cd "$dest" && pwd) # a relative DESTDIR still means the caller's folder after the cd below

cd "$(dirname "$0")"

# Plain cargo, the workspace's own build: `cargo build --release` makes the rlib, the CLI and,
# in the workspace's capi/ package, the C library with its SONAME (capi/build.rs).
metadata=$("$cargo" metadata --no-deps --format-version 1 --locked) || die "cargo metadata failed"
version=$(printf '%s' "$metadata" | sed -n 's/.*"name":"rapidpqp","version":"\([^"]*\)".*/\1/p')
target_dir=$(printf '%s' "$metadata" | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ -n "$version" ] && [ -n "$target_dir" ] || die "cannot read the version and target directory from cargo metadata"
has_cli=no
if printf '%s' "$metadata" | grep -q '"kind":\["bin"\],"crate_types":\["bin"\],"name":"rapidpqp"'; then
    has_cli=yes
fi

echo "install.sh: building the C library and the command-line tool (cargo build --release)"
"$cargo" build --release --locked || die "cargo build --release failed"

built="$target_dir/release"
shared="$built/librapidpqp.so"
static="$built/librapidpqp.a"
[ -f "$shared" ] && [ -f "$static" ] || die "cargo did not leave $shared and $static"
soname=$(objdump -p "$shared" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] || die "$shared has no SONAME (build.rs sets it on Linux)"
real="librapidpqp.so.$version"

libdir="$dest/lib"
incdir="$dest/include/rapidpqp"
pcdir="$libdir/pkgconfig"
cmakedir="$libdir/cmake/rapidpqp"
install -d "$libdir" "$incdir" "$pcdir" "$cmakedir"

install -m 0755 "$shared" "$libdir/$real"
if [ "$soname" != "$real" ]; then
    ln -sfn "$real" "$libdir/$soname"
fi
ln -sfn "$soname" "$libdir/librapidpqp.so"
install -m 0644 "$static" "$libdir/librapidpqp.a"
# rustc strips the shared library (Cargo.toml's release profile) but not an archive: drop the
# debug information and the LLVM bitcode (kept for Rust's LTO, never read by a C linker) that
# the standard library's objects bring: 25 MB -> 7 MB, the same code.
strip --strip-debug --remove-section=.llvmbc --remove-section=.llvmcmd "$libdir/librapidpqp.a" ||
    die "strip $libdir/librapidpqp.a failed"

# Every header of include/, subfolders kept (the set is not listed here: it is include/'s).
(cd include && find . -type f -print) | while IFS= read -r header; do
    header=${header#./}
    install -D -m 0644 "include/$header" "$incdir/$header"
done

if [ "$has_cli" = yes ]; then
    install -D -m 0755 "$built/rapidpqp" "$dest/bin/rapidpqp"
fi

# -lm -lpthread -ldl: what the static library needs from the system (Rust's standard library).
cat >"$pcdir/rapidpqp.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: rapidpqp
Description: Collision, distance and tolerance queries on triangle meshes (RAPID, PQP and V-COLLIDE compatible)
Version: $version
Libs: -L\${libdir} -lrapidpqp
Libs.private: -lm -lpthread -ldl
Cflags: -I\${includedir}/rapidpqp
EOF

# The CMake package finds its prefix from its own location, so a staged (DESTDIR) or moved
# installation works as well.
cat >"$cmakedir/rapidpqpConfig.cmake" <<EOF
# rapidpqp $version, installed by rapidpqp's install.sh.
#
#   find_package(rapidpqp REQUIRED)
#   target_link_libraries(app PRIVATE rapidpqp::rapidpqp)
#
# rapidpqp::rapidpqp is the shared library, or the static one when RAPIDPQP_STATIC is ON
# (set it before find_package). rapidpqp::shared and rapidpqp::static name each explicitly.
get_filename_component(_rapidpqp_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET rapidpqp::rapidpqp)
  add_library(rapidpqp::shared SHARED IMPORTED)
  set_target_properties(rapidpqp::shared PROPERTIES
    IMPORTED_LOCATION "\${_rapidpqp_prefix}/lib/$real"
    IMPORTED_SONAME "$soname"
    INTERFACE_INCLUDE_DIRECTORIES "\${_rapidpqp_prefix}/include/rapidpqp")

  add_library(rapidpqp::static STATIC IMPORTED)
  set_target_properties(rapidpqp::static PROPERTIES
    IMPORTED_LOCATION "\${_rapidpqp_prefix}/lib/librapidpqp.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_rapidpqp_prefix}/include/rapidpqp"
    INTERFACE_LINK_LIBRARIES "m;pthread;dl")

  add_library(rapidpqp::rapidpqp INTERFACE IMPORTED)
  if(RAPIDPQP_STATIC)
    set_target_properties(rapidpqp::rapidpqp PROPERTIES INTERFACE_LINK_LIBRARIES rapidpqp::static)
  else()
    set_target_properties(rapidpqp::rapidpqp PROPERTIES INTERFACE_LINK_LIBRARIES rapidpqp::shared)
  endif()
endif()

set(rapidpqp_INCLUDE_DIRS "\${_rapidpqp_prefix}/include/rapidpqp")
set(rapidpqp_LIBRARIES rapidpqp::rapidpqp)
unset(_rapidpqp_prefix)
EOF

# Compatible versions follow the SONAME: the same minor version for 0.x, the same major after.
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
if [ "$major" = 0 ]; then
    same_line="PACKAGE_FIND_VERSION_MAJOR STREQUAL \"0\" AND PACKAGE_FIND_VERSION_MINOR STREQUAL \"$minor\""
else
    same_line="PACKAGE_FIND_VERSION_MAJOR STREQUAL \"$major\""
fi
cat >"$cmakedir/rapidpqpConfigVersion.cmake" <<EOF
# rapidpqp $version: compatible with a request for the same ABI line (0.$minor.x before 1.0,
# then the same major version) that is not newer.
set(PACKAGE_VERSION "$version")
if(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif($same_line)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
else()
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
endif()
# A 64-bit library: unsuitable for a 32-bit build.
if(CMAKE_SIZEOF_VOID_P AND NOT CMAKE_SIZEOF_VOID_P STREQUAL "8")
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} (64-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
EOF

echo "install.sh: installed rapidpqp $version into $dest"
echo "  $libdir/$real (SONAME $soname), librapidpqp.so, librapidpqp.a"
echo "  $incdir/, $pcdir/rapidpqp.pc, $cmakedir/"
[ "$has_cli" = no ] || echo "  $dest/bin/rapidpqp"
