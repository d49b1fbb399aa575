#!/usr/bin/env bash
# System packages the project needs beyond Node and npm (Debian/Ubuntu). Idempotent: installs only what is
# missing, with apt-get install -y --no-install-recommends; does nothing when everything is there.
#   fonts-ocr-b  the OCR-B typeface of machine-readable zones: the document tests render MRZs with it
#   chromium     the browser of the web apps' end-to-end test (test/integration/web-portal-capture.test.ts)
#   espeak-ng    the speech synthesiser the voice tests generate their speakers with (test/helpers/speech.ts)
#   sox libsox-fmt-all  resampling, effects, noise and format conversions of the voice tests
#   opus-tools   opusenc: the Ogg/Opus (and, repackaged, WebM/Opus) samples of the voice decoding tests
#   flite festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts  more TTS engines and voices for
#                the voice spoof evaluation only (npm run eval -- train-voice-spoof / voice-spoof); no test needs them
# With --eval, also the festival voices of the external spoof check (npm run eval -- voice-spoof-external:
# Catalan HTS, Italian, Finnish and Czech diphone, Russian unit selection; GPL, LGPL and BSD-like voice data,
# 227 MB to download), which neither the tests nor CI need.
# Run as root or with sudo available: bash scripts/setup-system.sh [--eval]
set -euo pipefail

PACKAGES=(fonts-ocr-b chromium espeak-ng sox libsox-fmt-all opus-tools flite festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts)
if [ "${1:-}" = "--eval" ]; then
  PACKAGES+=(festvox-ca-ona-hts festvox-italp16k festvox-itapc16k festvox-suopuhe-mv festvox-suopuhe-lj festvox-czech-dita festvox-czech-machac festvox-ru)
fi

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup-system: all present (${PACKAGES[*]})"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-system: missing ${missing[*]} and no apt-get here; install them with your package manager" >&2
  exit 1
fi

run_as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    run_as_root=(sudo)
  else
    echo "setup-system: missing ${missing[*]}; run this script as root" >&2
    exit 1
  fi
fi

echo "setup-system: installing ${missing[*]}"
"${run_as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${run_as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
# The font cache lets fontconfig users (sharp's SVG text through librsvg) find new fonts at once.
if command -v fc-cache >/dev/null 2>&1; then fc-cache -f >/dev/null 2>&1 || true; fi
