"""Translation runs saved under the application's old registered names load."""

import json
import zipfile

import keras
import numpy as np

# Registers the old name `attention_zoo_translation>FixedContextDecoder`.
import attention_zoo.applications.translation.model  # noqa: F401
from attention_zoo.decoders import FixedContextDecoder
from tests.helpers import to_numpy


def _model():
    tokens = keras.Input((None, 3))
    memory = keras.Input((5, 2))
    outputs, _, _ = FixedContextDecoder(4, name="decoder")(tokens, memory)
    return keras.Model([tokens, memory], outputs)


def test_a_file_saved_under_the_translation_name_still_loads(tmp_path):
    """Runs saved before the class moved into the library registered it as
    `attention_zoo_translation>FixedContextDecoder`."""
    keras.utils.set_random_seed(1)
    model = _model()
    rng = np.random.default_rng(1)
    x = [rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 5, 2))]
    x = [a.astype("float32") for a in x]
    path, old = tmp_path / "new.keras", tmp_path / "old.keras"
    model.save(path)
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(old, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "config.json":
                text = data.decode()
                assert '"attention_zoo>FixedContextDecoder"' in text
                text = text.replace(
                    '"attention_zoo>FixedContextDecoder"',
                    '"attention_zoo_translation>FixedContextDecoder"',
                ).replace(
                    '"attention_zoo.decoders.fixed_context_decoder"',
                    '"attention_zoo.applications.translation.model"',
                )
                json.loads(text)
                data = text.encode()
            target.writestr(item, data)
    loaded = keras.saving.load_model(old)
    np.testing.assert_allclose(
        to_numpy(loaded(x)), to_numpy(model(x)), rtol=1e-6, atol=1e-6
    )
