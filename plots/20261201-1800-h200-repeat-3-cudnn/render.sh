#!/bin/sh
# Renders the charts of run 20261201-1800-h200-repeat-3-cudnn: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
