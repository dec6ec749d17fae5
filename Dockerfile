# A grading image: the Go toolchain, kurs with its built-in course and a warm
# build cache, run as an unprivileged user. kurs needs no network to grade:
# run it with --network none (docs/grading.md).
#
#   docker build -t kurs-grader --build-arg KURS_VERSION=$(git describe --tags --always) .
#   docker run --rm --network none -v "$PWD/submissions:/work/submissions:ro" -v "$PWD/out:/work/out" \
#     kurs-grader grade --submissions submissions --format json --output out/results.json

ARG GO_IMAGE=golang:1.26-bookworm

FROM ${GO_IMAGE} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG KURS_VERSION=
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-X github.com/kurs-course/kurs/internal/cli.version=${KURS_VERSION}" \
      -o /out/kurs ./cmd/kurs

FROM ${GO_IMAGE}
RUN groupadd --gid 10001 grader \
 && useradd --uid 10001 --gid grader --create-home --shell /usr/sbin/nologin grader \
 && mkdir /work && chown grader:grader /work
COPY --from=build /out/kurs /usr/local/bin/kurs
USER grader
# Nothing is fetched while grading: no module proxy, no other toolchain, no
# telemetry.
ENV GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off GOFLAGS=
# Build the harness and every exercise's reference once, into the user's
# build caches, so that the first check in a container is as quick as the rest.
RUN kurs init /tmp/warm --lang en && rm -rf /tmp/warm && kurs version
WORKDIR /work
ENTRYPOINT ["kurs"]
CMD ["help"]
