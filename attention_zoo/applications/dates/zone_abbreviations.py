"""The zone abbreviations a text may write after a time, with the offset
(or `Z`) a form writes for each: `EST` is `-05:00` (`form_grounding`,
`FormText.written_zones`; `form_words` holds the zones in words)."""

# Abbreviations of zones people write after a time, with the offset (or
# `Z`) a form writes for them. Standard and summer names of the zones of
# `forms.ZONES` that have a well-known one.
ZONE_ABBREVIATIONS = {
    "utc": ("Z", "+00:00"),
    "gmt": ("Z", "+00:00"),
    "z": ("Z", "+00:00"),
    "est": ("-05:00",),
    "edt": ("-04:00",),
    "cst": ("-06:00",),
    "cdt": ("-05:00",),
    "mst": ("-07:00",),
    "mdt": ("-06:00",),
    "pst": ("-08:00",),
    "pdt": ("-07:00",),
    "bst": ("+01:00",),
    "cet": ("+01:00",),
    "cest": ("+02:00",),
    "eet": ("+02:00",),
    "eest": ("+03:00",),
    "msk": ("+03:00",),
    "мск": ("+03:00",),
    "ist": ("+05:30",),
    "jst": ("+09:00",),
    "kst": ("+09:00",),
}
