#!/usr/bin/env bash
# Runs several named commands at once, each writing to a log of its own, then prints each log whole in the order given
# and one closing line of the tests' counts. Exits non-zero when any command did. The commands must share no state
# (each its own database, ports and temporary folders): CI's suites run this way on the 2 cores.
# Usage: scripts/run-together.sh <name> '<command>' [<name> '<command>' ...]
set -uo pipefail
logs="$(mktemp -d /tmp/sighting-together.XXXXXX)"
trap 'rm -rf "$logs"' EXIT
names=() pids=()
started=$SECONDS
while (( $# >= 2 )); do
  name=$1 command=$2; shift 2
  names+=("$name")
  # Its exit code, when it ended (a subshell counts SECONDS on from the start) and the CPU its processes used (`times`:
  # the children it waited for), for the summary: on 2 cores the jobs' CPU, not their waits, sets CI's time.
  { bash -c "$command" > "$logs/$name.log" 2>&1 < /dev/null; code=$?
    times > "$logs/$name.times"
    cpu=$(awk 'END { split($1 " " $2, t, /[ms ]+/); printf "%d", t[1] * 60 + t[2] + t[3] * 60 + t[4] }' \
      "$logs/$name.times")
    echo "exit $code after $(( SECONDS - started )) s, CPU $cpu s" > "$logs/$name.end"; } &
  pids+=($!)
  echo "=== $name: started: $command"
done

failed=0 passed_tests=0 failed_tests=0 results=()
for index in "${!names[@]}"; do
  wait "${pids[$index]}"
  results[$index]=$(cat "$logs/${names[$index]}.end")
  [[ ${results[$index]} == "exit 0 "* ]] || failed=1
done
for index in "${!names[@]}"; do
  name=${names[$index]}
  echo "=== $name (${results[$index]})"
  cat "$logs/$name.log"
  # mocha's summaries, one per mocha run the command made ("  1128 passing (10m)", "  3 pending", "  2 failing"),
  # added up. A "failing" line counts only in such a summary: a nested run-together repeats it with the failures.
  read -r passing failing < <(awk '
    /^ +[0-9]+ passing/ { passing += $1; summary = 1; next }
    summary && /^ +[0-9]+ pending/ { next }
    summary && /^ +[0-9]+ failing/ { failing += $1 }
    { summary = 0 }
    END { print passing + 0, failing + 0 }' "$logs/$name.log")
  passed_tests=$(( passed_tests + ${passing:-0} )) failed_tests=$(( failed_tests + ${failing:-0} ))
done
# A long log's end is what a CI page shows, and only its end: repeat each failed suite's failures there, short enough
# that every failed suite's fit (mocha's "N failing" sections, a nested run's own repeat in place of its whole logs, no
# stack frames, 60 lines a suite).
for index in "${!names[@]}"; do
  [[ ${results[$index]} == "exit 0 "* ]] && continue
  log="$logs/${names[$index]}.log"
  echo "=== ${names[$index]}: its failures again"
  if grep -q '^=== .*: its failures again$' "$log"; then start='^=== .*: its failures again$'
  else start='^ \+[0-9]\+ failing'; fi
  sed -n "/$start/,\$p" "$log" | grep -v '^ \+at ' | head -n 60
done
for index in "${!names[@]}"; do echo "=== ${names[$index]}: ${results[$index]}"; done
echo "tests: $passed_tests passed, $failed_tests failed"
exit $failed
