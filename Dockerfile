# One image for the three Dagster services of docker-compose.yml (code server, webserver, daemon).
# The project is installed editable from its source tree: it reads sql/, deploy/dagster.yaml and the workspace files there.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    MEMORY_PIPELINE_HOME=/opt/memory_pipeline/state \
    DAGSTER_HOME=/opt/memory_pipeline/state/dagster

WORKDIR /opt/memory_pipeline/app
COPY . .
RUN pip install --no-cache-dir -e . \
    && mkdir -p "$DAGSTER_HOME" \
    && cp deploy/dagster.yaml "$DAGSTER_HOME/dagster.yaml"

EXPOSE 3000 4000
