"""The scripted server's embeddings answer in the encoding the request asks for, as OpenAI does: n8n's client
(the openai JS SDK) asks for `base64` and decodes float32s without checking (issue 18, point 4)."""

import base64
import json
import struct
import urllib.request

import openai
import pytest

from memory_pipeline_tests.openai_server import ScriptedOpenAIServer, hashed_embedding


def post_embeddings(server, body):
    request = urllib.request.Request(server.base_url + "/embeddings", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def test_base64_embeddings_decode_to_the_float_vector_of_the_requested_size():
    with ScriptedOpenAIServer() as server:
        answer = post_embeddings(server, {"model": "m", "input": ["green tea", "coffee"], "dimensions": 1536,
                                          "encoding_format": "base64"})
    for item, text in zip(answer["data"], ["green tea", "coffee"]):
        raw = base64.b64decode(item["embedding"])
        assert len(raw) == 1536 * 4  # float32s: n8n's decoder reads 4 bytes a dimension
        assert list(struct.unpack("<1536f", raw)) == pytest.approx(hashed_embedding(text, 1536), abs=1e-6)


def test_float_embeddings_stay_lists_when_asked_or_unspecified():
    with ScriptedOpenAIServer() as server:
        for body in ({"input": "tea", "dimensions": 8}, {"input": "tea", "dimensions": 8, "encoding_format": "float"}):
            assert post_embeddings(server, body)["data"][0]["embedding"] == hashed_embedding("tea", 8)


def test_the_openai_sdk_reads_the_same_vectors_whichever_encoding():
    with ScriptedOpenAIServer() as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test")
        for encoding in ("float", "base64"):
            vector = client.embeddings.create(model="m", input=["tea"], dimensions=16,
                                              encoding_format=encoding).data[0].embedding
            if isinstance(vector, str):  # the SDK hands back base64 when it was asked for explicitly
                vector = list(struct.unpack("<16f", base64.b64decode(vector)))
            assert vector == pytest.approx(hashed_embedding("tea", 16), abs=1e-6)
