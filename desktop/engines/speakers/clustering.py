"""Which windows of speech share a voice: agglomerative clustering of their embeddings (scikit-learn).

With a number of speakers given, the windows are grouped into that many; otherwise groups are joined
while their average cosine distance stays under AUTO_DISTANCE, and a group with less speech than
MIN_SPEAKER_SECONDS is joined to the nearest one (a cough, a laugh or a word said too briefly to
judge must not become a speaker of its own). Windows from stretches shorter than RELIABLE_SECONDS
do not take part in deciding the groups; each is then given the nearest group.
"""
from __future__ import annotations

import numpy as np

from desktop.engines.speakers.embeddings import HOP_SECONDS, Windows

AUTO_DISTANCE = 0.42
MIN_SPEAKER_SECONDS = 2.0
RELIABLE_SECONDS = 1.0


def cluster(windows: Windows, count: int | None) -> np.ndarray:
    """A group number (0, 1, …) for each window; count: the number of speakers, None to decide."""
    n = len(windows)
    if n == 0:
        return np.zeros(0, dtype=int)
    reliable = windows.stretch_seconds >= RELIABLE_SECONDS
    if reliable.sum() < 2:
        reliable = np.ones(n, dtype=bool)
    if reliable.sum() < 2 or count == 1:
        return np.zeros(n, dtype=int)
    embeddings = windows.embeddings[reliable]
    labels = _agglomerative(embeddings, count)
    if count is None:
        labels = _without_small_groups(embeddings, labels, windows.ends[reliable] - windows.starts[reliable])
    centroids = _centroids(windows.embeddings[reliable], labels)
    # Every window, the reliable ones too, goes to its nearest group: that settles the windows
    # average linkage placed by their whole group rather than by their own voice.
    nearest = np.argmax(windows.embeddings @ centroids.T, axis=1)
    return _renumbered(nearest)


def _agglomerative(embeddings: np.ndarray, count: int | None) -> np.ndarray:
    from sklearn.cluster import AgglomerativeClustering

    if count is None:
        model = AgglomerativeClustering(n_clusters=None, distance_threshold=AUTO_DISTANCE,
                                        metric="cosine", linkage="average")
    else:
        model = AgglomerativeClustering(n_clusters=min(count, len(embeddings)), metric="cosine", linkage="average")
    return model.fit_predict(embeddings)


def _without_small_groups(embeddings: np.ndarray, labels: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """Groups with too little speech joined to the nearest group with enough."""
    labels = _renumbered(labels)
    seconds = np.array([_speech_seconds(spans[labels == group]) for group in range(labels.max() + 1)])
    large = np.flatnonzero(seconds >= MIN_SPEAKER_SECONDS)
    if len(large) == 0:
        return np.zeros_like(labels)
    centroids = _centroids(embeddings, labels)
    for group in np.flatnonzero(seconds < MIN_SPEAKER_SECONDS):
        labels[labels == group] = large[np.argmax(centroids[large] @ centroids[group])]
    return _renumbered(labels)


def _speech_seconds(spans: np.ndarray) -> float:
    # Windows overlap: each adds about one hop of new speech, the first its whole length.
    return float(min(spans.sum(), spans.max(initial=0.0) + HOP_SECONDS * max(len(spans) - 1, 0)))


def _centroids(embeddings: np.ndarray, labels: np.ndarray) -> np.ndarray:
    centroids = np.stack([embeddings[labels == group].mean(axis=0) for group in range(labels.max() + 1)])
    return centroids / np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-8)


def _renumbered(labels: np.ndarray) -> np.ndarray:
    """Groups numbered 0, 1, … without holes."""
    _, dense = np.unique(labels, return_inverse=True)
    return dense.astype(int)
