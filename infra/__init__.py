"""The site's shared platform, below every app: what a request may carry (params), the channel layer
(layer), rate limits (ratelimit), per-event-loop singletons (perloop), JSON text (jsontext), the
garbage collector's tuning (gc_tuning) and hooks (hooks: the one way an app plugs into code below it).
It imports no app of the project."""
