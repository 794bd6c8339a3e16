"""The SHA-256 of every file of the official CTranslate2 Whisper models, pinned here, so that a mirror
(hf-mirror.com, a company's own) is trusted only to serve the same bytes as Hugging Face: what its
listing says about a file's checksum counts for nothing where a pin exists.

The values are the Git LFS object ids (the SHA-256 of the content) of the files on the main branch
of each repository, as published by Hugging Face and recorded by several independent projects that
pin the same files; those of tiny.en and base were also checked against the files themselves.

A model without pins (large-v1, whose checksums could not be established) is checked against its
listing's checksums: from Hugging Face itself those are the publisher's; from a mirror they are the
mirror's word only, so the download is kept but marked unverified (core/common/model_origin).
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

# Files several repositories share: the same tokenizer and vocabulary in each language family.
_EN_TOKENIZER = "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"
_EN_VOCABULARY = "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"
_TOKENIZER = "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"
_VOCABULARY = "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"
_V3_PREPROCESSOR = "7ccc62c6f2765af1f3b46c00c9b5894426835a05021c8b9c01eecb6dfb542711"
_V3_VOCABULARY = "c69260f2ab26d659b7c398f9a2b2b48ed0df16c3b47d7326782fd9cba71690c1"


def _files(config: str, model: str, tokenizer: str, vocabulary: str, *, preprocessor: str | None = None,
           vocabulary_file: str = "vocabulary.txt") -> Mapping[str, str]:
    files = {"config.json": config, "model.bin": model, "tokenizer.json": tokenizer, vocabulary_file: vocabulary}
    if preprocessor:
        files["preprocessor_config.json"] = preprocessor
    return MappingProxyType(files)


# model name -> {file name: SHA-256}; the repositories are those of whisper_models.OFFICIAL_MODELS.
CT2_CHECKSUMS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "tiny": _files("a73a28cdfe1c43ccc7202fa333d1f89c202477271407ae9a7f19afa52039cac8",
                   "dcb76c6586fc06cbdac6dd21f14cfd129cc4cdd9dce19bf4ffa62e59cbe6e6d1", _TOKENIZER, _VOCABULARY),
    "tiny.en": _files("14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
                      "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a", _EN_TOKENIZER, _EN_VOCABULARY),
    "base": _files("56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
                   "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9", _TOKENIZER, _VOCABULARY),
    "base.en": _files("f3bc3821e9fc76a27bae538e11ae5b677dcdd352b4600429ce7951d398569aeb",
                      "2a166925539a16005f14ff328359f9b9adb9dc4fb631bb3b227526862e93e2ef", _EN_TOKENIZER, _EN_VOCABULARY),
    "small": _files("b55496ac7940a7ae47d2c01eab40edfd8701feec1229d9cce3b40014383fb828",
                    "3e305921506d8872816023e4c273e75d2419fb89b24da97b4fe7bce14170d671", _TOKENIZER, _VOCABULARY),
    "small.en": _files("666a9605530ac1f61fa8177f3702b4dacec9966749e42610839fcc32661d5fae",
                       "62b2a45b05ee59acb4a5341b33ee35e041395d378d418a18acfe4c9e768ee37a", _EN_TOKENIZER, _EN_VOCABULARY),
    "medium": _files("3622a2ddc41ec0e0fd4e68c13c6830f03b90c38d89aaad184de02c8c642cf807",
                     "9b45e1009dcc4ab601eff815b61d80e60ce3fd8c74c1a14f4a282258286b51ae", _TOKENIZER, _VOCABULARY),
    "medium.en": _files("4a1848ebabe7938d9797c15a2e8e4ce1d36e6fd4a43d096ae5955257c67c7962",
                        "11b220779aea4c6f3ce9d2549c8a95ea869ed84066864b999531ef53e594fe5b", _EN_TOKENIZER,
                        _EN_VOCABULARY),
    "large-v2": _files("d86b7a7664a12559d644aa210a32ce9a7e03913e794b7ea4fb7182de69e273a7",
                       "bf2a9746382e1aa7ffff6b3a0d137ed9edbd9670c3b87e5d35f5e85e70d0333a", _TOKENIZER, _VOCABULARY),
    "large-v3": _files("a9306624f5ec14270a014b647e5c316b6e03a662c369758d1b90697a7b0655b9",
                       "69f74147e3334731bc3a76048724833325d2ec74642fb52620eda87352e3d4f1",
                       "6d8cbd7cd0d8d5815e478dac67b85a26bbe77c1f5e0c6d76d1ce2abc0e5f21ca", _V3_VOCABULARY,
                       preprocessor=_V3_PREPROCESSOR, vocabulary_file="vocabulary.json"),
    "turbo": _files("b0253ea6c0d3bea6b1e19e91a02acfd3b53f4467362efcb5a3e6b16c9b3a9b7e",
                    "e76620f83d5f5b69efd3d87e3dc180c1bd21df9fbebacfd4335e5e1efcc018da",
                    "297b13372ac43916285644fb9687add3cc62ee2a1adb60da3dc25cc94c1871fd", _V3_VOCABULARY,
                    preprocessor=_V3_PREPROCESSOR, vocabulary_file="vocabulary.json"),
})
"""No entry for large-v1: its checksums could not be established."""
