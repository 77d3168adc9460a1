"""The site's shared platform, below every app: what a request may carry (params), the channel layer
(layer), rate limits (ratelimit), per-event-loop singletons (perloop), JSON text (jsontext) and the
garbage collector's tuning (gc_tuning). It imports no app of the project."""
