"""The connection limits' defaults, which `attention-zoo serve --help` shows.

This module imports nothing, so the command line reads them without
FastAPI, uvicorn or Keras (docs/reliability.md, "The command answers at
once"); `serving.limits` holds the other limits and the middleware that
applies them.
"""

# A request's line and headers: four times nginx's default (8 KiB a line,
# 32 KiB in all), so that a browser's cookies for `localhost` still fit.
MAX_HEADER_BYTES = 64 * 1024
# Open connections (each may hold a body of up to MAX_BODY_BYTES until its
# deadline): twice the most clients benchmarks/serving.py runs.
MAX_CONNECTIONS = 128
# Seconds for a request's head from its first byte, for its body from the
# end of its head, and for a connection that sends nothing (uvicorn's
# keep-alive default); the serve command's --header-timeout, --body-timeout
# and --idle-timeout change them.
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
IDLE_TIMEOUT = 5.0
