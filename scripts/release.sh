#!/usr/bin/env bash
# Builds mcp-inspect's release archives: linux, darwin and windows x amd64 and arm64, each
# a static binary (CGO_ENABLED=0, -trimpath) stamped with the version, archived with
# README.md (.tar.gz; .zip for Windows) by internal/tools/archive, reproducibly (entries,
# times and owners fixed: the same commit gives the same bytes), plus SHA256SUMS. Then it
# checks them: the checksums verify, each archive lists what it should, and the binary
# that runs here prints the stamped version.
#
#   bash scripts/release.sh [-o DIR] [-v VERSION | --snapshot] [GOOS/GOARCH...]
#
#   -o DIR       where the archives go (default dist/, emptied first; gitignored)
#   -v VERSION   the version to stamp, e.g. v0.3.0 (default: git describe --tags --dirty)
#   --snapshot   a build that is no release (CI): v0.0.0-snapshot+COMMIT[.dirty]
#   GOOS/GOARCH  build only these targets (default: all six)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
die() { printf 'release: %s\n' "$*" >&2; exit 1; }

out=$root/dist
version=
snapshot=
targets=()
while (($#)); do
	case $1 in
	-o) out=$(realpath -m "$2"); shift 2 ;;
	-v) version=$2; shift 2 ;;
	--snapshot) snapshot=1; shift ;;
	-h | --help) sed -n '2,16p' "$0"; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) targets+=("$1"); shift ;;
	esac
done
((${#targets[@]})) || targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)

commit=$(git rev-parse --short=12 HEAD 2>/dev/null) || die "not a git checkout: the version and the archives' time come from the commit"
dirty=
[[ -z $(git status --porcelain --untracked-files=no) ]] || dirty=.dirty
if [[ -n $snapshot ]]; then
	version=v0.0.0-snapshot+$commit$dirty
elif [[ -z $version ]]; then
	version=$(git describe --tags --dirty 2>/dev/null) || die "no tag to take the version from: give -v VERSION or --snapshot"
fi
[[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]] || die "version $version: want vMAJOR.MINOR.PATCH[...]"
# Every entry's time is the commit's, so the archives do not change with the build's time.
mtime=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}

rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/archive" ./internal/tools/archive

ldflags="-s -w -X github.com/mcp-inspect/mcp-inspect/cmd.releaseVersion=$version"
archives=()
for t in "${targets[@]}"; do
	os=${t%/*} arch=${t#*/}
	[[ $t == */* && -n $os && -n $arch ]] || die "target $t: want GOOS/GOARCH"
	exe=mcp-inspect
	[[ $os == windows ]] && exe=mcp-inspect.exe
	mkdir -p "$work/$os-$arch"
	start=$SECONDS
	if ! CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$work/$os-$arch/$exe" . 2>"$work/err"; then
		cat "$work/err" >&2
		die "$t does not build"
	fi
	name=mcp-inspect_${version#v}_${os}_$arch
	if [[ $os == windows ]]; then
		name+=.zip
	else
		name+=.tar.gz
	fi
	"$work/archive" -mtime "$mtime" "$out/$name" "$work/$os-$arch/$exe" "$root/README.md"
	archives+=("$name")
	printf '%-16s %s (%ds)\n' "$t" "$name" $((SECONDS - start))
done
(cd "$out" && sha256sum "${archives[@]}" >SHA256SUMS)

# Checks: the checksums, each archive's entries, and the version of the binary for here.
(cd "$out" && sha256sum --quiet -c SHA256SUMS) || die "SHA256SUMS does not verify"
here=$(go env GOHOSTOS)/$(go env GOHOSTARCH)
for name in "${archives[@]}"; do
	case $name in
	*.zip) want=$'mcp-inspect.exe\nREADME.md'; got=$(python3 -c 'import sys,zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$out/$name") ;;
	*) want=$'mcp-inspect\nREADME.md'; got=$(tar -tzf "$out/$name") ;;
	esac
	[[ $got == "$want" ]] || die "$name holds $(tr '\n' ' ' <<<"$got"), want $(tr '\n' ' ' <<<"$want")"
done
for t in "${targets[@]}"; do
	[[ $t == "$here" ]] || continue
	mkdir -p "$work/check"
	tar -xzf "$out/mcp-inspect_${version#v}_${t%/*}_${t#*/}.tar.gz" -C "$work/check"
	got=$("$work/check/mcp-inspect" --version)
	[[ $got == "mcp-inspect version $version" ]] || die "the $t binary says \"$got\", want \"mcp-inspect version $version\""
	echo "$t binary: $got"
done
echo "release $version: ${#archives[@]} archives and SHA256SUMS in $out"
