"""``java.util.HashMap`` bin by bin, tree bins included: the rare tables ``engine.java.hashmap.JavaHashMap`` leaves
out (a bucket reaching 8 or 9 keys in a table of 64 or more turns into a red-black tree whose iteration order
is no longer the order of insertion).

>>> m = TreeBinHashMap(lambda k: k, 64)
>>> for k in range(0, 64 * 9, 64): m.put(k, None)   # nine keys in bucket 0 of a 64-slot table: a tree bin
>>> len(m.keys()), m.capacity
(9, 64)

``String`` keys are ``Comparable``: where their hashes are equal a tree orders them by ``compareTo``.  ``"Aa"``
and ``"BB"`` share a hash code, so the sixteen strings of four such blocks all collide; put into
``new HashMap<>(64)``, the ninth makes their bin a tree.  Java 17 iterates them in this order, which the identity
tie-break alone (no ``compare``) would not give:

>>> from engine.java.strings import string_compare, string_hash_code
>>> blocks = [a + b + c + d for a in ("Aa", "BB") for b in ("Aa", "BB") for c in ("Aa", "BB") for d in ("Aa", "BB")]
>>> keys = sorted(blocks, key=lambda s: s[::-1])   # BBBBBBBB, AaBBBBBB, BBAaBBBB, AaAaBBBB, ...
>>> strings = TreeBinHashMap(string_hash_code, 64, compare=string_compare)
>>> for key in keys: strings.put(key, None)
>>> strings.keys()
['AaBBBBBB', 'BBAaBBBB', 'BBBBBBBB', 'AaBBBBAa', 'AaAaBBBB', 'AaBBAaAa', 'BBBBAaBB', 'BBBBAaAa',
 'AaBBAaBB', 'BBAaAaBB', 'BBAaAaAa', 'BBAaBBAa', 'AaAaAaBB', 'AaAaAaAa', 'AaAaBBAa', 'BBBBBBAa']
>>> by_identity = TreeBinHashMap(string_hash_code, 64)
>>> for key in keys: by_identity.put(key, None)
>>> by_identity.keys()[:3]
['AaAaBBBB', 'BBBBBBBB', 'AaBBBBBB']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from engine.java.strings import HASHMAP_DEFAULT_CAPACITY, HASHMAP_MAX_CAPACITY, hashmap_spread, table_size_for, to_int32

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

TREEIFY_THRESHOLD = 8  # HashMap.TREEIFY_THRESHOLD
MIN_TREEIFY_CAPACITY = 64  # HashMap.MIN_TREEIFY_CAPACITY


def treeify_at(compute_if_absent: bool) -> int:
    """How many keys a bin holds once the insertion that calls ``treeifyBin`` is done.  Both ``putVal`` and
    ``computeIfAbsent`` test ``binCount >= TREEIFY_THRESHOLD - 1``, but ``putVal`` counts the keys it walks
    past after the first and ``computeIfAbsent`` every key already in the bin: 9 keys for ``put``, 8 for
    ``computeIfAbsent``.

    >>> treeify_at(compute_if_absent=False), treeify_at(compute_if_absent=True)
    (9, 8)
    """
    return TREEIFY_THRESHOLD if compute_if_absent else TREEIFY_THRESHOLD + 1


class _TreeNode(Generic[K]):
    __slots__ = ("key", "hash", "left", "right", "parent", "red")

    def __init__(self, key: K, hash_code: int) -> None:
        self.key = key
        self.hash = hash_code  # the spread hash as a signed int, as TreeNode compares it
        self.left: _TreeNode[K] | None = None
        self.right: _TreeNode[K] | None = None
        self.parent: _TreeNode[K] | None = None
        self.red = False


class TreeBinHashMap(Generic[K, V]):
    """``java.util.HashMap`` modelled bin by bin, tree bins included (the rare cases ``JavaHashMap`` leaves out).

    A bin is the list of its keys in ``next`` order.  A put appends to a list bin and ``computeIfAbsent``
    links at its head; a bin reaching 9 keys by ``put`` (8 by ``computeIfAbsent``) doubles a table shorter
    than 64 and otherwise becomes a red-black tree ordered by spread hash (``TreeNode``): building it, and every
    insertion or removal in it, may move the tree's root to the front of the bin, and a key inserted into a
    tree is linked right after its tree parent.  A resize splits each bin in order, a tree half of 6 keys or
    fewer turning back into a list and a larger half being rebuilt.

    Keys with equal 32-bit hashes in one tree are ordered as ``treeify`` and ``putTreeVal`` order them: by
    ``compare(new_key, tree_key)`` when the keys are ``Comparable`` (``compareComparables``; ``compare`` is
    their ``compareTo``, e.g. ``engine.java.strings.string_compare`` for ``String`` keys, and answers 0 for
    keys of different classes), and where that answers 0 or no ``compare`` is given by
    ``System.identityHashCode`` (``tieBreakOrder``), which no model can know: here the later key goes left.
    Lookups and removals find a key by its entry here, not by a descent: Java's ``find`` reaches the same node
    whichever way it goes, so ``compare`` shapes only where new keys hang.
    """

    def __init__(self, hash_code: Callable[[K], int], initial_capacity: int = HASHMAP_DEFAULT_CAPACITY,
                 compare: Callable[[K, K], int] | None = None) -> None:
        self._hash = hash_code
        self._compare = compare
        self._capacity = 0                                   # no table until the first insertion
        self._threshold = table_size_for(max(initial_capacity, 0))
        self._values: dict[K, V] = {}
        self._spread: dict[K, int] = {}
        self._bins: dict[int, list[K]] = {}
        self._trees: dict[int, dict[K, _TreeNode[K]]] = {}   # bin -> its tree nodes (tree bins only)

    @property
    def capacity(self) -> int:
        return self._capacity

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def keys(self) -> list[K]:
        return [key for index in sorted(self._bins) for key in self._bins[index]]

    def put(self, key: K, value: V) -> None:
        """``HashMap.put`` (``HashSet.add``): a new key goes to the end of a list bin."""
        if not self._capacity:
            self._resize()
        if key in self._values:
            self._values[key] = value
            return
        index = self._link(key, value)
        bin_ = self._bins[index]
        if index in self._trees:
            self._put_tree(index, key)
        else:
            bin_.append(key)
            if len(bin_) >= treeify_at(compute_if_absent=False):
                self._treeify_bin(index)
        if len(self._values) > self._threshold:
            self._resize()

    def compute_if_absent(self, key: K, factory: Callable[[], V]) -> V:
        """``HashMap.computeIfAbsent``: resizes first when over the threshold; a new key goes to the head of a
        list bin."""
        if len(self._values) > self._threshold or not self._capacity:
            self._resize()
        if key in self._values:
            return self._values[key]
        value = factory()
        index = self._link(key, value)
        bin_ = self._bins[index]
        if index in self._trees:
            self._put_tree(index, key)
        else:
            bin_.insert(0, key)
            if len(bin_) >= treeify_at(compute_if_absent=True):
                self._treeify_bin(index)
        return value

    def remove(self, key: K, movable: bool = True) -> None:
        """``HashMap.remove`` (``movable``) or ``Iterator.remove`` (not ``movable``: a tree keeps its shape
        and its root's place in the bin)."""
        if key not in self._values:
            return
        index = self._spread[key] & (self._capacity - 1)
        del self._values[key]
        if index in self._trees:
            self._remove_tree(index, key, movable)
        else:
            self._bins[index].remove(key)
        if not self._bins[index]:
            del self._bins[index]
            self._trees.pop(index, None)
        del self._spread[key]

    def _link(self, key: K, value: V) -> int:
        self._values[key] = value
        spread = hashmap_spread(self._hash(key))
        self._spread[key] = spread
        index = spread & (self._capacity - 1)
        self._bins.setdefault(index, [])
        return index

    # ----------------------------------------------------------------------------------------- the table

    def _resize(self) -> None:
        old = self._capacity
        if old == 0:
            self._capacity = self._threshold if self._threshold > 0 else HASHMAP_DEFAULT_CAPACITY
            self._threshold = int(self._capacity * 0.75)
            return
        if old >= HASHMAP_MAX_CAPACITY:
            return
        self._capacity, self._threshold = old << 1, int((old << 1) * 0.75)
        bins, trees = self._bins, self._trees
        self._bins, self._trees = {}, {}
        for index, bin_ in bins.items():
            low = [key for key in bin_ if not self._spread[key] & old]
            high = [key for key in bin_ if self._spread[key] & old]
            for part, target in ((low, index), (high, index + old)):
                if not part:
                    continue
                self._bins[target] = part
                if index not in trees or len(part) <= _UNTREEIFY_THRESHOLD:
                    continue
                if low and high:
                    self._treeify(target)
                else:
                    self._trees[target] = trees[index]  # the whole tree moves as it is

    def _treeify_bin(self, index: int) -> None:
        if self._capacity < MIN_TREEIFY_CAPACITY:
            self._resize()
        else:
            self._treeify(index)

    # -------------------------------------------------------------------------------------- tree bins

    def _node(self, key: K) -> _TreeNode[K]:
        return _TreeNode(key, to_int32(self._spread[key]))

    def _treeify(self, index: int) -> None:
        """``TreeNode.treeify``: insert the bin's keys in order, then move the root to the front."""
        nodes: dict[K, _TreeNode[K]] = {}
        root: _TreeNode[K] | None = None
        for key in self._bins[index]:
            x = nodes[key] = self._node(key)
            if root is None:
                root = x
                continue
            self._hang(root, x)
            root = _balance_insertion(root, x)
        self._trees[index] = nodes
        assert root is not None
        self._move_root_to_front(index, root)

    def _root(self, index: int) -> _TreeNode[K]:
        node = self._trees[index][self._bins[index][0]]
        while node.parent is not None:
            node = node.parent
        return node

    def _put_tree(self, index: int, key: K) -> None:
        """``TreeNode.putTreeVal``: the new key is linked right after its tree parent."""
        nodes = self._trees[index]
        root = self._root(index)
        x = nodes[key] = self._node(key)
        parent = self._hang(root, x)
        bin_ = self._bins[index]
        bin_.insert(bin_.index(parent.key) + 1, key)
        self._move_root_to_front(index, _balance_insertion(root, x))

    def _hang(self, root: _TreeNode[K], x: _TreeNode[K]) -> _TreeNode[K]:
        """Link ``x`` below the node where the descent from ``root`` ends (left when ``dir <= 0``); answer it."""
        p = root
        while True:
            go_left = self._direction(x, p) <= 0
            child = p.left if go_left else p.right
            if child is None:
                x.parent = p
                if go_left:
                    p.left = x
                else:
                    p.right = x
                return p
            p = child

    def _direction(self, x: _TreeNode[K], p: _TreeNode[K]) -> int:
        """The descent's ``dir`` for new node ``x`` at node ``p``: by hash, then ``compare`` (``compareComparables``),
        then -1 (``tieBreakOrder``, see the class)."""
        if p.hash != x.hash:
            return -1 if p.hash > x.hash else 1
        order = 0 if self._compare is None else self._compare(x.key, p.key)
        return order or -1

    def _move_root_to_front(self, index: int, root: _TreeNode[K]) -> None:
        bin_ = self._bins[index]
        if bin_[0] != root.key:
            bin_.remove(root.key)
            bin_.insert(0, root.key)

    def _remove_tree(self, index: int, key: K, movable: bool) -> None:
        """``TreeNode.removeTreeNode``."""
        nodes, bin_ = self._trees[index], self._bins[index]
        root = nodes[bin_[0]]
        while root.parent is not None:
            root = root.parent
        bin_.remove(key)
        p = nodes.pop(key)
        if not bin_:
            return
        if movable and (root.right is None or root.left is None or root.left.left is None):
            del self._trees[index]  # too small: back to a list, in bin order
            return
        root, replacement = _unlink(root, p)
        r = root if p.red else _balance_deletion(root, replacement)
        if replacement is p:  # detach
            pp = p.parent
            p.parent = None
            if pp is not None:
                if pp.left is p:
                    pp.left = None
                elif pp.right is p:
                    pp.right = None
        if movable:
            self._move_root_to_front(index, r)


_UNTREEIFY_THRESHOLD = 6


def _unlink(root: _TreeNode[K], p: _TreeNode[K]) -> tuple[_TreeNode[K], _TreeNode[K]]:
    """The first half of ``removeTreeNode``: swap p with its successor when it has two children, then splice
    its replacement in; answers the root and the replacement (p itself when p is a leaf)."""
    pl, pr = p.left, p.right
    if pl is not None and pr is not None:
        s = pr
        while s.left is not None:
            s = s.left
        s.red, p.red = p.red, s.red
        sr, pp = s.right, p.parent
        if s is pr:
            p.parent = s
            s.right = p
        else:
            sp = s.parent
            p.parent = sp
            if sp is not None:
                if s is sp.left:
                    sp.left = p
                else:
                    sp.right = p
            s.right = pr
            pr.parent = s
        p.left = None
        p.right = sr
        if sr is not None:
            sr.parent = p
        s.left = pl
        pl.parent = s
        s.parent = pp
        if pp is None:
            root = s
        elif p is pp.left:
            pp.left = s
        else:
            pp.right = s
        replacement = sr if sr is not None else p
    elif pl is not None:
        replacement = pl
    elif pr is not None:
        replacement = pr
    else:
        replacement = p
    if replacement is not p:
        pp = replacement.parent = p.parent
        if pp is None:
            root = replacement
            replacement.red = False
        elif p is pp.left:
            pp.left = replacement
        else:
            pp.right = replacement
        p.left = p.right = p.parent = None
    return root, replacement


def _rotate_left(root: _TreeNode[K], p: _TreeNode[K] | None) -> _TreeNode[K]:
    if p is not None and p.right is not None:
        r = p.right
        p.right = r.left
        if r.left is not None:
            r.left.parent = p
        r.parent = pp = p.parent
        if pp is None:
            root = r
            r.red = False
        elif pp.left is p:
            pp.left = r
        else:
            pp.right = r
        r.left = p
        p.parent = r
    return root


def _rotate_right(root: _TreeNode[K], p: _TreeNode[K] | None) -> _TreeNode[K]:
    if p is not None and p.left is not None:
        lft = p.left
        p.left = lft.right
        if lft.right is not None:
            lft.right.parent = p
        lft.parent = pp = p.parent
        if pp is None:
            root = lft
            lft.red = False
        elif pp.right is p:
            pp.right = lft
        else:
            pp.left = lft
        lft.right = p
        p.parent = lft
    return root


def _balance_insertion(root: _TreeNode[K], x: _TreeNode[K]) -> _TreeNode[K]:
    x.red = True
    while True:
        xp = x.parent
        if xp is None:
            x.red = False
            return x
        xpp = xp.parent
        if not xp.red or xpp is None:
            return root
        if xp is xpp.left:
            uncle = xpp.right
            if uncle is not None and uncle.red:
                uncle.red = xp.red = False
                xpp.red = True
                x = xpp
                continue
            if x is xp.right:
                x = xp
                root = _rotate_left(root, x)
                xp = x.parent
                xpp = None if xp is None else xp.parent
            if xp is not None:
                xp.red = False
                if xpp is not None:
                    xpp.red = True
                    root = _rotate_right(root, xpp)
        else:
            uncle = xpp.left
            if uncle is not None and uncle.red:
                uncle.red = xp.red = False
                xpp.red = True
                x = xpp
                continue
            if x is xp.left:
                x = xp
                root = _rotate_right(root, x)
                xp = x.parent
                xpp = None if xp is None else xp.parent
            if xp is not None:
                xp.red = False
                if xpp is not None:
                    xpp.red = True
                    root = _rotate_left(root, xpp)


def _red(node: _TreeNode[K] | None) -> bool:
    return node is not None and node.red


def _balance_deletion(root: _TreeNode[K], x: _TreeNode[K] | None) -> _TreeNode[K]:
    while True:
        if x is None or x is root:
            return root
        xp = x.parent
        if xp is None:
            x.red = False
            return x
        if x.red:
            x.red = False
            return root
        if xp.left is x:
            sibling = xp.right
            if _red(sibling):
                assert sibling is not None
                sibling.red = False
                xp.red = True
                root = _rotate_left(root, xp)
                xp = x.parent
                sibling = None if xp is None else xp.right
            if sibling is None:
                x = xp
                continue
            if not _red(sibling.right) and not _red(sibling.left):
                sibling.red = True
                x = xp
                continue
            if not _red(sibling.right):
                if sibling.left is not None:
                    sibling.left.red = False
                sibling.red = True
                root = _rotate_right(root, sibling)
                xp = x.parent
                sibling = None if xp is None else xp.right
            if sibling is not None:
                sibling.red = False if xp is None else xp.red
                if sibling.right is not None:
                    sibling.right.red = False
            if xp is not None:
                xp.red = False
                root = _rotate_left(root, xp)
            x = root
        else:
            sibling = xp.left
            if _red(sibling):
                assert sibling is not None
                sibling.red = False
                xp.red = True
                root = _rotate_right(root, xp)
                xp = x.parent
                sibling = None if xp is None else xp.left
            if sibling is None:
                x = xp
                continue
            if not _red(sibling.left) and not _red(sibling.right):
                sibling.red = True
                x = xp
                continue
            if not _red(sibling.left):
                if sibling.right is not None:
                    sibling.right.red = False
                sibling.red = True
                root = _rotate_left(root, sibling)
                xp = x.parent
                sibling = None if xp is None else xp.left
            if sibling is not None:
                sibling.red = False if xp is None else xp.red
                if sibling.left is not None:
                    sibling.left.red = False
            if xp is not None:
                xp.red = False
                root = _rotate_right(root, xp)
            x = root
