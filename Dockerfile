# The hatstand server, built in release mode.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin hatstand

FROM debian:bookworm-slim
RUN useradd --system --home /var/lib/hatstand hatstand
COPY --from=build /src/target/release/hatstand /usr/local/bin/hatstand
USER hatstand
ENV HATSTAND_BIND=0.0.0.0:8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD ["hatstand", "probe"]
ENTRYPOINT ["hatstand"]
CMD ["serve"]
