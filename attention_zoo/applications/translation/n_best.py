"""The n-best lists of a translator's answers: every hypothesis, readable."""

from __future__ import annotations

import numpy as np

from attention_zoo.applications.common.search import ranking_scores
from attention_zoo.applications.translation import masking


def alternatives(translator, texts, masks, ids, attention, scores) -> list[list[dict]]:
    """`{"text", "score", "ranking_score"}` of every hypothesis per
    text (as the model read it; `masks` restore the placeholders), best
    first (by `ranking_score`: `search.ranking_scores`)."""
    out = []
    for i, text in enumerate(texts):
        rows = translator.readable([text] * len(ids[i]), ids[i], attention[i])
        alpha = translator.alpha if len(ids[i]) > 1 else 0.0
        ranking = ranking_scores(scores[i], ids[i], alpha)
        out.append(
            [
                {
                    "text": masking.restored(translator.join(r), masks[i]),
                    "score": float(s) if np.isfinite(s) else None,
                    "ranking_score": float(k) if np.isfinite(s) else None,
                }
                for r, s, k in zip(rows, scores[i], ranking)
            ]
        )
    return out
