# Sourced first by every bench/*.sh and tools/*.sh, with the script's own arguments: `--help` or
# `-h` prints the script's header comment (line 2 up to the first line that is not a comment) and
# exits 0 before anything runs, so that asking how to run a long benchmark never starts it.
for argument in "$@"; do
  if [[ $argument == --help || $argument == -h ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done
