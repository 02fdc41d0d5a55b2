"""The application layer's export driver: one job per module.

- `driver`: an application's export in any format (`export_application`).
- `saved_model`: the SavedModel archive every application's `export`
  writes (`export_folder`, `write_saved_model`).
- `portable`: the LiteRT and ONNX files of an application's tensor core
  (`CoreFunction`, `write_portable`), and what an exported predictor shares
  (`ExportedSearch`, `data_files`, `check_width`).
- `runtimes`: each portable format run in its own runtime.
- `files`: the files of an export folder, listed with their digests when
  written and checked before anything is read.
- `text_to_text`: what the text-to-text applications' SavedModels share
  (translation and summarization: source words, ids, the domain check).

`registry.export` and the command call the driver (`attention-zoo APP export`); each application's
`export.py` holds its hooks (`export`, `export_core` and its exported
predictor); `attention_zoo.applications.load_exported` reads back what it
wrote. The TensorFlow graph helpers these build on are the library's
`attention_zoo.export`.
"""
