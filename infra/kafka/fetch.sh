#!/usr/bin/env bash
# Fetches the Apache Kafka broker that the tests run (infra/kafka/pom.xml: kafka_2.13 with its
# runtime dependencies and a logging binding) from Maven Central into .cache/kafka/lib, once:
# a cache whose stamp names the pom's current content is kept. Needs java (17+) and mvn.
# Prints the folder on its last line.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
pom="${root}/infra/kafka/pom.xml"
cache="${root}/.cache/kafka"
lib="${cache}/lib"
stamp="$(sha256sum "${pom}" | cut -c1-16)"

if [[ -f "${cache}/stamp" && "$(cat "${cache}/stamp")" == "${stamp}" ]] && compgen -G "${lib}/kafka_2.13-*.jar" >/dev/null; then
  echo "${lib}"
  exit 0
fi
for tool in java mvn; do
  if ! command -v "${tool}" >/dev/null; then
    echo "error: ${tool} is missing; the Kafka tests need java (17 or newer) and mvn (Debian: openjdk-17-jre-headless maven)." >&2
    exit 1
  fi
done
rm -rf "${lib}.partial"
mkdir -p "${cache}"
mvn -q -B -f "${pom}" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="${lib}.partial" >&2
rm -rf "${lib}"
mv "${lib}.partial" "${lib}"
echo "${stamp}" >"${cache}/stamp"
echo "${lib}"
