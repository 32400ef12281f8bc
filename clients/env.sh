# Shared settings of the client scripts; sourced, so the build and the scenario runs agree on versions and paths.
GENERATOR_VERSION="7.25.0"
CLIENT_TARGETS=(java-okhttp-gson java-native)
CLIENTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$CLIENTS_DIR")"
BUILD_DIR="$CLIENTS_DIR/build"
GENERATOR_JAR="$BUILD_DIR/tools/openapi-generator-cli-$GENERATOR_VERSION.jar"
# The generated Java SDKs target Java 8+, the scenario Java 17; never inherit another default JDK.
export JAVA_HOME="${CLIENTS_JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
JAVA="$JAVA_HOME/bin/java"

# Maven, quiet and batch; offline first, so a warm ~/.m2 needs no network, online only for what is missing. One Maven
# at a time on this machine (CI runs its suites at once, and ~/.m2 is not safe for two writers).
MAVEN_LOCK="$HOME/.m2/sighting-registry.lock"
maven() {
  mkdir -p "$HOME/.m2"
  flock "$MAVEN_LOCK" mvn -B -Dstyle.color=never -o "$@" > /dev/null 2>&1 || flock "$MAVEN_LOCK" mvn -B -Dstyle.color=never "$@"
}

# The builds of clients/build and clients/dist one at a time: a second caller waits, then finds them up to date.
hold_build_lock() {
  mkdir -p "$BUILD_DIR"
  exec 9> "$BUILD_DIR/.lock"
  flock 9
}

# The scenario sources compiled into a target.
scenario_sources() {
  case $1 in
    java-*) echo "$CLIENTS_DIR/java/Scenario.java $CLIENTS_DIR/java/Paged.java $CLIENTS_DIR/java/${1#java-}/Sdk.java" ;;
    go) echo "$CLIENTS_DIR/go/scenario.go" ;;
    kotlin) echo "$CLIENTS_DIR/kotlin/Scenario.kt $CLIENTS_DIR/kotlin/pom.xml" ;;
  esac
}

java_classpath() {
  case $1 in
    kotlin) echo "$BUILD_DIR/$1/target/classes:$(cat "$BUILD_DIR/$1/classpath.txt")" ;;
    *) echo "$BUILD_DIR/$1/sdk/target/classes:$(cat "$BUILD_DIR/$1/classpath.txt")" ;;
  esac
}

# Go in GOPATH mode: the generated package as `sighting` beside the scenario, and Debian's module sources
# (scripts/install-go.sh) for golang.org/x/oauth2 and gopkg.in/validator.v2; no module proxy is reached.
go_env() {
  echo GO111MODULE=off GOPATH="$BUILD_DIR/go/gopath:/usr/share/gocode" GOCACHE="$BUILD_DIR/go/cache"
}

# The generator jar, from Maven Central through the local Maven repository (~/.m2 keeps the download).
fetch_generator() {
  [[ -s "$GENERATOR_JAR" ]] && return
  echo "clients: fetching openapi-generator-cli $GENERATOR_VERSION from Maven Central"
  mkdir -p "$(dirname "$GENERATOR_JAR")"
  maven -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="org.openapitools:openapi-generator-cli:$GENERATOR_VERSION" -DoutputDirectory="$(dirname "$GENERATOR_JAR")"
}
