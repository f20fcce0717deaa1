#!/usr/bin/env bash
# Installs the system libraries forge links (espeak-ng, libsndfile, SQLite, libebur128, libsoxr, libzip, libxml2, cmark, libcurl, pocketsphinx with its
# en-us model), ffmpeg (the M4B and ACX exports encode with it) and the espeak-ng command used by
# the benchmark, when any is missing. Debian 12 /
# Ubuntu; uses sudo when not root.
set -euo pipefail

packages=(pkg-config libespeak-ng-dev libsndfile1-dev libsqlite3-dev libebur128-dev libsoxr-dev libzip-dev libxml2-dev libcmark-dev libcurl4-openssl-dev espeak-ng ffmpeg time libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us)
# `--tests`: also what only the test suite uses (headless Chromium for the read-along page test;
# nginx with its WebDAV module as the remote cache server the cache tests start on 127.0.0.1;
# epubcheck, which every kind of EPUB forge writes must pass; the sqlite3 shell the finishing
# benchmark reads the manifest with).
if [ "${1:-}" = "--tests" ]; then
    packages+=(chromium epubcheck sqlite3 gdb)
    # Debian 12 and Ubuntu 22.04 ship the small nginx-light; later releases only nginx (with the module).
    if [ ! -x /usr/sbin/nginx ]; then
        if apt-cache show nginx-light >/dev/null 2>&1; then packages+=(nginx-light); else packages+=(nginx); fi
    fi
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
