#!/usr/bin/env bash
# Builds a self-contained folder, gpu/bundle/ (ignored by git), that runs the CUDA engine's tests and benchmark on a
# GPU host without a JDK or network: a jlinked Java runtime, the gpu module and its tests as jars, JCuda and its
# natives, slf4j, the JUnit console launcher and AssertJ, and run.sh (from src/bundle/). Fails if it is 64 MiB or
# more (what a device run may carry).
#
#   gpu/bundle.sh                  build the bundle
#   gpu/bundle/run.sh OUT          on the GPU host (or here, where the CUDA parts skip)
set -euo pipefail

gpu=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$gpu")
bundle=$gpu/bundle
limit=$((64 * 1024 * 1024))

cd "$root"
echo "bundle.sh: building the gpu module (tests compiled, not run) ..."
./mvnw -q -B -pl gpu -am install -DskipTests

rm -rf "$bundle"
mkdir -p "$bundle/lib"
echo "bundle.sh: collecting jars ..."
# the module's runtime and test libraries, less JUnit's own jars (the console launcher carries them) and Byte Buddy
# (AssertJ needs it only for soft assertions, which these tests do not use)
./mvnw -q -B -pl gpu dependency:copy-dependencies -DincludeScope=test -DoutputDirectory="$bundle/lib" \
  -DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian,net.bytebuddy
./mvnw -q -B -pl gpu dependency:copy -DoutputDirectory="$bundle/lib" \
  -Dartifact=org.junit.platform:junit-platform-console-standalone:1.13.4
cp gpu/target/commitflow-gpu-*.jar "$bundle/lib/"
rm -f "$bundle"/lib/*-sources.jar "$bundle"/lib/*-tests.jar
jar --create --file "$bundle/lib/commitflow-gpu-tests.jar" -C gpu/target/test-classes .

echo "bundle.sh: linking a Java runtime ..."
# the modules the jars use (jdeps), and what JCuda, slf4j and the launcher reach by reflection or service lookup
# (jdk.zipfs: the launcher scans the test jar for classes through a zip file system)
modules=$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 "$bundle"/lib/*.jar 2>/dev/null \
  | tail -n 1)
modules=$(tr ',' '\n' <<<"$modules,java.base,java.logging,jdk.unsupported,jdk.zipfs" | grep -E '^[a-z][a-z0-9.]*$' | sort -u \
  | paste -sd, -)
echo "bundle.sh: modules: $modules"
jlink --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=2 \
  --output "$bundle/java"

cp "$gpu/src/bundle/run.sh" "$bundle/run.sh"
chmod +x "$bundle/run.sh"

size=$(du -sb "$bundle" | cut -f1)
printf 'bundle.sh: %s is %.1f MiB (limit 64 MiB)\n' "$bundle" "$(bc -l <<<"$size / 1048576" 2>/dev/null || echo "$((size / 1048576))")"
du -sh "$bundle/java" "$bundle/lib" | sed 's/^/bundle.sh:   /'
if ((size >= limit)); then
  echo "bundle.sh: the bundle is too large: $size bytes" >&2
  exit 1
fi
