"""Which windows of speech share a voice: agglomerative clustering of their embeddings (scikit-learn).

With a number of speakers given, the windows are grouped into that many; otherwise groups are joined
while their average cosine distance stays under AUTO_DISTANCE, and a group that never holds the floor
(two windows in a row, or a whole stretch of speech of at least MIN_SPEAKER_SECONDS) is joined to the
nearest one: a cough, a laugh, an odd window inside someone's talk or a word said too briefly to
judge must not become a speaker. Windows from stretches shorter than RELIABLE_SECONDS (back-channels
such as "yes" or "对") do not take part in deciding the groups; each is then given the nearest group.
"""
from __future__ import annotations

import numpy as np

from desktop.engines.speakers.embeddings import HOP_SECONDS, Windows

AUTO_DISTANCE = 0.42
MIN_SPEAKER_SECONDS = 1.5
RELIABLE_SECONDS = 1.5


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
        labels = _without_phantoms(embeddings, labels, windows.ends[reliable] - windows.starts[reliable],
                                   windows.pieces[reliable])
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


def _without_phantoms(embeddings: np.ndarray, labels: np.ndarray, spans: np.ndarray,
                      pieces: np.ndarray) -> np.ndarray:
    """Groups that never hold the floor, joined to the nearest group that does."""
    labels = _renumbered(labels)
    real = np.zeros(labels.max() + 1, dtype=bool)
    for index in range(1, len(labels)):
        if pieces[index - 1] == pieces[index] and labels[index - 1] == labels[index]:
            real[labels[index]] = True
    for piece in np.unique(pieces):
        inside = pieces == piece
        groups = np.unique(labels[inside])
        if len(groups) == 1 and _speech_seconds(spans[inside]) >= MIN_SPEAKER_SECONDS:
            real[groups[0]] = True
    if not real.any():
        return np.zeros_like(labels)
    centroids = _centroids(embeddings, labels)
    kept = np.flatnonzero(real)
    for group in np.flatnonzero(~real):
        labels[labels == group] = kept[np.argmax(centroids[kept] @ centroids[group])]
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
