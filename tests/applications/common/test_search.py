"""`ranking_scores` undoes `mean_log_prob`: from the score per token and the
ids, the search's own ranking score, the order of its n-best list."""

import numpy as np
from keras import ops

from attention_zoo.applications.common.search import mean_log_prob, ranking_scores
from attention_zoo.applications.common.text import END_ID, PAD_ID


def test_ranking_scores_invert_the_score_per_token():
    # Best first as beam search with alpha 1 ranks them: one word and <end>
    # (log P -0.7, ranking -0.7 / (7 / 6) = -0.6), then three words and
    # <end> (log P -1.0, ranking -1.0 / (9 / 6) = -0.667). Per token the
    # second is better (-0.25 against -0.35): the list "looks out of order"
    # by that score, and is in order by the ranking score.
    ids = np.array([[7, END_ID, PAD_ID, PAD_ID, PAD_ID], [7, 8, 9, END_ID, PAD_ID]])
    ranking = np.array([-0.7 / (7 / 6), -1.0 / (9 / 6)])
    per_token = ops.convert_to_numpy(mean_log_prob(ranking, [2, 4], alpha=1.0))
    np.testing.assert_allclose(per_token, [-0.35, -0.25], rtol=1e-6)
    np.testing.assert_allclose(ranking_scores(per_token, ids, 1.0), ranking, rtol=1e-6)
    # Without a penalty the ranking score is the summed log-probability.
    np.testing.assert_allclose(ranking_scores(per_token, ids), [-0.7, -1.0], rtol=1e-6)
