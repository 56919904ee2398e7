/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package sun.security.util;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The memory cache behind the factory methods of {@link Cache}: a bounded
 * map whose entries leave it first in, first out, with an optional
 * lifetime, values held strongly or through soft references, and
 * optionally a queue of values per key (see
 * {@link Cache#newSoftMemoryQueue(int, int, int)}).
 *
 * <p>Every entry is one node that lives in two structures at once: a
 * chained hash table and a doubly linked list in the order the entries
 * were put, oldest first. The work of an operation does not grow with the
 * number of entries:
 * <ul>
 * <li>the table grows incrementally: a growth allocates a new table of
 *     fixed-size segments, a segment when a put first writes into it, and
 *     every put moves a few buckets of the old table into the new one;
 * <li>a lookup walks one bucket, which holds few nodes whatever keys are
 *     put: the table places hash codes as {@code HashMap} does until a put
 *     finds its bucket crowded by keys of other hash codes, and from then
 *     on (until {@link #clear}) by a keyed mix of their bits (see
 *     {@link #REKEY_AT});
 *     at most {@link #MAX_SAME_HASH} nodes share one hash code;
 * <li>expired entries are the oldest ones, at the head of the list: a put
 *     removes at most {@link #MAX_EXPIRED_PER_PUT} of them, and a burst of
 *     entries that expire together is removed over the puts that follow;
 * <li>an operation purges at most {@link #MAX_CLEARED_PER_OP} entries whose
 *     soft values the garbage collector cleared.
 * </ul>
 * The exceptions do what their contracts ask for: {@link #size()} and
 * {@link #accept} finish both purges first, {@link #setCapacity} looks at
 * every entry, and {@link #setTimeout} may look at every entry (to a
 * longer lifetime or none when entries carry queues, and from none to a
 * lifetime). An operation on a key's queue costs up to the queue's length.
 *
 * <p>All operations hold the cache's lock, except that {@link #accept}
 * calls its visitor after releasing it.
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values
 */
final class MemoryCache<K,V> extends Cache<K,V> {

    /**
     * The most expired entries one put removes. Every put adds at most one
     * entry and may remove this many, so a backlog of expired entries (a
     * burst of sessions that all time out together) shrinks by several
     * entries per put instead of being removed in one pause under the lock.
     */
    private static final int MAX_EXPIRED_PER_PUT = 4;

    /**
     * The most entries of cleared soft values one operation removes. Larger
     * than MAX_EXPIRED_PER_PUT: the collector clears many values at once
     * under memory pressure, and their keys should be released soon after.
     */
    private static final int MAX_CLEARED_PER_OP = 256;

    /**
     * The most entries with one hash code; a put of a new key that would
     * exceed it first removes the oldest of them.
     *
     * <p>Anyone can make many keys with one hash code (Strings of "Aa" and
     * "BB" blocks, byte arrays likewise), and a lookup must call
     * {@code equals} on every entry with the key's hash code: without a
     * bound, a flood of such keys, say session ids or certificates chosen
     * by a peer, would make every lookup of that hash code cost one call
     * per key. A cache may forget an entry; the bound only ever makes it
     * forget entries of keys that share their full 32-bit hash code with
     * this many others. Legitimate keys (random session ids, certificate
     * encodings) do so by chance almost never: among n keys with uniformly
     * spread hash codes, the expected number of sets of 9 keys with one
     * hash code is about n^9 / (9! * 2^256), 5 * 10^-23 for five million
     * keys. So only a flood of chosen keys is limited, to the newest of
     * them, and it takes no entry of any other hash code with it (but in a
     * bucket of the identity layout it crowds before the table has moved
     * to the keyed one, see {@link #MAX_IDENTITY_BUCKET}).
     *
     * <p>8 keeps a lookup within 8 calls of {@code equals}, the length at
     * which {@code java.util.HashMap} considers a bucket too long for a
     * list; 16 would double the cost of a flood for no gain in hit rate.
     */
    static final int MAX_SAME_HASH = 8;

    /**
     * The number of nodes of hash codes other than its key's that a put
     * must find in a bucket of the identity layout to switch the table to
     * the keyed layout (see {@link #index}).
     *
     * <p>The table starts in the identity layout, HashMap's spread
     * {@code h ^ (h >>> 16)}: it gives keys with close hash codes
     * (consecutive Integers) a bucket each, so a lookup of such keys reads
     * one node, where any keyed mix puts some of them in shared buckets by
     * chance (a third of the keys at a load of 0.4), each share costing a
     * cache miss on another node. Anyone can choose keys that the identity
     * layout crowds into one bucket, though, and a lookup walks its bucket:
     * a put that finds this many nodes of other hash codes in its bucket
     * (however many codes they have) makes the
     * table move, by the incremental migration a growth uses, into a table
     * of the keyed layout, for good (until {@link #clear}). If a growth is
     * in progress, the move starts when the growth has ended.
     *
     * <p>Keys whose hash codes are spread fill the buckets of the identity
     * layout like random throws, so the other nodes a put finds in its
     * bucket are Poisson-distributed with the table's load as mean (at most
     * 3/4, up to 1 in the last buckets of an old table during a growth): 8
     * or more are found by about 1.3 * 10^-6 of the puts at load 3/4, 6 *
     * 10^-8 at 1/2, 7 * 10^-9 at 3/8 (1.0 * 10^-5 at load 1): a switch by
     * chance every 800,000 puts or so at load 3/4, and a large cache of
     * such keys usually switches within a growth or two. That costs it
     * nothing: with spread hash codes the keyed layout is as fast, and
     * only close hash codes gain from the identity layout.
     */
    static final int REKEY_AT = 8;

    /**
     * The most nodes in one bucket of the identity layout; a put of a new
     * key that would exceed it first removes the bucket's first node, the
     * oldest of its hash code.
     *
     * <p>A bucket of the identity layout reaches this length only after a
     * put found {@link #REKEY_AT} nodes of other hash codes in it (it
     * holds at most MAX_SAME_HASH nodes of the put's own), so only between
     * the put that made a switch to the keyed layout due and the move of
     * that bucket, at most a growth's puts and a switch's later (see
     * {@link #migrate});
     * while chosen keys crowd a bucket so, each lookup of it still walks at
     * most this many nodes. With spread hash codes a bucket of 16 nodes
     * practically never occurs (about 2 * 10^-16 per bucket at load 3/4).
     */
    static final int MAX_IDENTITY_BUCKET = 16;

    /** The most buckets of the old table one put moves into the new one. */
    private static final int MIGRATE_PER_PUT = 4;

    /**
     * The most segments of its new table one put allocates before a
     * switch of layout moves any bucket (see {@link #migrate}).
     */
    private static final int SEGMENTS_PER_PUT = 2;

    /** The initial number of buckets. */
    private static final int MIN_TABLE = 16;

    /** The number of buckets is never larger: 2^30, as in HashMap. */
    private static final int MAX_TABLE = 1 << 30;

    /**
     * Buckets per segment: 8192 references, 32 KiB with compressed
     * references. No array of the table is longer (but the small array of
     * segments, 2^17 references at MAX_TABLE), so no put allocates and
     * zeroes a whole table, however large the cache.
     */
    private static final int SEGMENT_SHIFT = 13;
    private static final int SEGMENT = 1 << SEGMENT_SHIFT;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final boolean soft;
    private final int maxQueueSize;
    private final LongSupplier clock;
    /**
     * Mixed into every hash code in the keyed layout, so that which hash
     * codes share a bucket depends on a secret of this cache (see
     * {@link #keyedHash}).
     */
    private final int seed;

    // Soft caches only: where the collector puts the soft references it
    // cleared, SoftNodes and Tickets. clear() replaces it, so that a
    // reference of a node cleared before is never taken for a current one.
    private ReferenceQueue<V> queue;

    // The table.
    //
    // Invariants:
    // - every node of the list is in exactly one bucket, and every node of
    //   a bucket is in the list: while a migration (a growth, or a switch
    //   to the keyed layout) is in progress, the buckets i >= migrated of
    //   oldTable are still in use, those below are empty and their nodes
    //   are in table; so the nodes of a hash h are in bucket
    //   index(h, oldKeyed, oldLength) of oldTable if that is >= migrated,
    //   else in bucket index(h, keyed, tableLength) of table, and a lookup
    //   walks one bucket, also during a migration;
    // - node.hash() is its key's hashCode, taken once, when the node was
    //   made: a key whose hashCode changes later cannot break the table,
    //   its node is still found, by identity, where it was put;
    // - per hash, the nodes of a bucket are in the order of the list, so
    //   the first node of a hash in its bucket is the oldest of that hash
    //   (and a bucket's first node the oldest of its own hash): a put
    //   links its node at the end of its bucket and of the list, a growth
    //   keeps the order when it splits a bucket, and a switch moves the
    //   nodes of an old bucket in order to the ends of their new buckets,
    //   which hold no node of their hashes yet (a bucket's whole order is
    //   not the list's: a switch appends an old bucket's nodes after nodes
    //   put later);
    // - at most MAX_SAME_HASH nodes have one hash;
    // - at most MAX_IDENTITY_BUCKET nodes are in a bucket of the identity
    //   layout; a put found REKEY_AT nodes of other hashes in one only if
    //   keyed or rekeyDue is set since;
    // - only a switch sets keyed, and only clear() resets it; oldKeyed
    //   implies keyed, and rekeyDue is set only while keyed is not;
    // - oldTable is not null only during a migration, and puts finish
    //   moving it before the next growth is due: a migration from L
    //   buckets starts, when none is in progress, with at most 3L / 4
    //   nodes, and takes L / MIGRATE_PER_PUT puts, a switch also one put
    //   per SEGMENTS_PER_PUT segments of its new table; it doubles the
    //   length unless the count stays below 3L / 4 for that many puts, so
    //   it ends with fewer nodes than 3/4 of its new length (at most
    //   3L / 4 + L / 4 + L / 8192 + 1 of 3L / 2 when it doubles);
    // - no array of a table is longer than SEGMENT, but the top array;
    // - the table never shrinks; clear() drops it.
    private Node<K,V>[][] table;        // segments; null until the first put
    private int tableLength;            // buckets in table, a power of 2
    private boolean keyed;              // table's layout (see index)
    private Node<K,V>[][] oldTable;     // being moved into table, or null
    private int oldLength;              // buckets in oldTable
    private boolean oldKeyed;           // oldTable's layout
    private int migrated;               // buckets of oldTable already moved
    private int segmentsMade;           // of table, by a switch (migrate)
    private boolean rekeyDue;           // switch to keyed once no migration

    // The list, in the order the entries were put (a put of a key that
    // is cached, or a value queued under it, moves its node to the tail).
    //
    // Invariants:
    // - count is the number of nodes in the list;
    // - while lifetime > 0, times never decrease from head to tail (they
    //   are differences of the clock's values, which may wrap): every put
    //   or move stamps the current time at the tail, and setTimeout from
    //   no lifetime to one stamps every node with the same time; so the
    //   expired nodes are a prefix of the list, and the oldest node to
    //   evict is the head;
    // - a queue's tickets are in the order they were queued and their
    //   times never decrease; the newest one has its node's time, unless
    //   it was cleared by the collector (the queue is hollow, see below).
    private Node<K,V> head;             // oldest
    private Node<K,V> tail;             // newest
    private int count;

    // Whether a queue may be hollow: its newest value was cleared by the
    // collector and removed, so the older values left may all expire
    // before their node does, and the node, not expired, would hold no
    // value that get or accept could see. The list's order cannot tell
    // when (the node keeps its place), so size() then looks at every
    // queue. Set when a newest value goes and older ones stay; cleared
    // when that look finds no hollow queue left, or when every time is
    // set anew.
    private boolean hollowQueues;

    private int maxSize;                // 0: unbounded
    private long lifetime;              // nanoseconds; 0: no expiry

    /**
     * Creates a cache whose entries do not expire.
     *
     * @param soft whether values are held through soft references
     * @param maxSize the maximum number of entries; zero or negative means
     *        unbounded
     */
    public MemoryCache(boolean soft, int maxSize) {
        this(soft, maxSize, 0, 0);
    }

    /**
     * Creates a cache.
     *
     * @param soft whether values are held through soft references
     * @param maxSize the maximum number of entries; zero or negative means
     *        unbounded
     * @param lifetime the lifetime of entries in seconds; zero or negative
     *        means entries do not expire
     */
    public MemoryCache(boolean soft, int maxSize, int lifetime) {
        this(soft, maxSize, lifetime, 0);
    }

    /**
     * Creates a cache that queues up to {@code qSize} values per key when
     * they are put with {@code canQueue}.
     *
     * @param soft whether values are held through soft references
     * @param maxSize the maximum number of keys; zero or negative means
     *        unbounded
     * @param lifetime the lifetime of entries in seconds; zero or negative
     *        means entries do not expire
     * @param qSize the maximum number of values queued per key; zero means
     *        values are never queued
     * @throws IllegalArgumentException if {@code qSize} is negative
     */
    public MemoryCache(boolean soft, int maxSize, int lifetime, int qSize) {
        this(soft, maxSize, lifetime, qSize, System::nanoTime);
    }

    /**
     * Creates a cache that reads the time from {@code clock}, whose values
     * are nanoseconds as those of {@link System#nanoTime()} are: only their
     * differences are meaningful. For tests.
     */
    MemoryCache(boolean soft, int maxSize, int lifetime, int qSize,
            LongSupplier clock) {
        if (qSize < 0) {
            throw new IllegalArgumentException(
                    "negative maximum queue size: " + qSize);
        }
        this.soft = soft;
        this.maxSize = Math.max(maxSize, 0);
        this.lifetime = toNanos(lifetime);
        this.maxQueueSize = qSize;
        this.clock = clock;
        this.queue = soft ? new ReferenceQueue<>() : null;
        this.seed = ThreadLocalRandom.current().nextInt();
    }

    private static long toNanos(int seconds) {
        // at most 2^31 * 10^9 < 2^63: cannot overflow
        return seconds > 0 ? seconds * NANOS_PER_SECOND : 0L;
    }

    // ---- time

    /**
     * The time for a new entry, or to judge expiry. Without a lifetime
     * nothing ages, so no clock is read: entries get time 0, and
     * setTimeout gives them the current time if a lifetime is set later.
     */
    private long now() {
        return lifetime == 0 ? 0L : clock.getAsLong();
    }

    /** Differences, never comparisons of times: nanoTime may wrap. */
    private boolean expired(long time, long now) {
        return lifetime != 0 && now - time >= lifetime;
    }

    // ---- public operations

    /**
     * Returns the number of entries, after removing every entry that
     * expired or whose soft value the collector cleared and queued, and
     * every key whose queue holds no value left: the number of entries
     * {@link #accept} would show, but for soft values cleared and not yet
     * queued. Takes time proportional to the entries removed, or to all
     * entries once the collector cleared the newest value of a queue whose
     * older values stay.
     *
     * @return the number of entries
     */
    @Override
    public synchronized int size() {
        drainQueue(Integer.MAX_VALUE);
        long now = now();
        expunge(now, Integer.MAX_VALUE);
        if (hollowQueues && lifetime != 0) {
            boolean hollow = false;
            for (Node<K,V> n = head; n != null; ) {
                Node<K,V> after = n.after();
                Tickets<K,V> tickets = n.tickets();
                if (tickets != null && isHollow(n, tickets)) {
                    dropDeadTickets(tickets, now);
                    if (tickets.deque.isEmpty()) {
                        unlink(n);
                    } else {
                        hollow |= isHollow(n, tickets);
                    }
                }
                n = after;
            }
            hollowQueues = hollow;
        }
        return count;
    }

    /**
     * Removes every entry. Takes constant time: the nodes become garbage
     * together with the table.
     */
    @Override
    public synchronized void clear() {
        table = null;
        tableLength = 0;
        keyed = false;
        oldTable = null;
        oldLength = 0;
        oldKeyed = false;
        migrated = 0;
        rekeyDue = false;
        head = null;
        tail = null;
        count = 0;
        hollowQueues = false;
        if (soft) {
            // the references the collector queues later go to the old
            // queue, which nothing polls
            queue = new ReferenceQueue<>();
        }
    }

    /**
     * Puts a value under a key, as the newest entry; the oldest entry goes
     * if the cache was full. Putting {@code null} into a soft cache removes
     * the key (a cleared soft reference looks the same). If the key's
     * {@code hashCode} or {@code equals} throws, the cache keeps its
     * entries.
     *
     * @param key the key
     * @param value the value
     */
    @Override
    public void put(K key, V value) {
        put(key, value, false);
    }

    /**
     * Puts a value under a key, as {@link #put(Object, Object)} does, or,
     * if {@code canQueue} and this cache queues values, appends it to the
     * key's queue of values (dropping the queue's oldest value when it is
     * full) and makes the key the newest entry.
     *
     * @param key the key
     * @param value the value
     * @param canQueue whether the value may be queued under the key
     */
    @Override
    public synchronized void put(K key, V value, boolean canQueue) {
        // The key's own code runs first, hashCode here and equals in the
        // walk below, before anything visible changes: a key that throws
        // leaves the cache as it was. What runs in between only removes
        // entries that no operation would return and moves buckets.
        int h = Objects.hashCode(key);
        long now = now();
        drainQueue(MAX_CLEARED_PER_OP);
        expunge(now, MAX_EXPIRED_PER_PUT);
        prepareTable();

        // One walk of the key's bucket finds the key's node, the oldest
        // node of its hash, the bucket's last node and how crowded it is.
        Node<K,V>[][] t;
        int length;
        boolean tKeyed;
        int i;
        if (oldTable != null
                && (i = index(h, oldKeyed, oldLength)) >= migrated) {
            t = oldTable;
            length = oldLength;
            tKeyed = oldKeyed;
        } else {
            t = table;
            length = tableLength;
            tKeyed = keyed;
            i = index(h, keyed, length);
        }
        Node<K,V> found = null;
        Node<K,V> foundPrev = null;
        Node<K,V> oldest = null;
        Node<K,V> oldestPrev = null;
        int sameHash = 0;
        int others = 0;
        Node<K,V> last = null;
        for (Node<K,V> p = bucket(t, i); p != null; last = p, p = p.chain()) {
            if (p.hash() != h) {
                others++;
            } else if (found == null) {
                Object k = p.key();
                if (k == key || (key != null && key.equals(k))) {
                    found = p;
                    foundPrev = last;
                } else if (sameHash++ == 0) {
                    oldest = p;
                    oldestPrev = last;
                }
            }
        }
        if (others >= REKEY_AT && !keyed) {
            // a crowd the identity layout let in: switch (prepareTable)
            rekeyDue = true;
        }

        if (value == null && soft) {
            // A soft reference to null looks like a cleared one: the key
            // goes, as it would once its value was cleared.
            if (found != null) {
                unchain(t, i, foundPrev, found);
                release(found);
            }
            return;
        }

        Node<K,V> node;
        if (canQueue && maxQueueSize > 0) {
            Tickets<K,V> tickets = found == null ? null : found.tickets();
            if (tickets != null && !expired(found.time(), now)) {
                addTicket(found, tickets, value, now);
                // the newest entry now: to the end of the list and, to
                // keep the order of its hash in the bucket, of the bucket
                if (found != last) {
                    unchain(t, i, foundPrev, found);
                    linkAfter(t, length, i, last, found);
                }
                detach(found);
                found.time(now);
                append(found);
                return;
            }
            // The node holds its queue strongly, also in a soft cache:
            // the tickets are the soft references.
            tickets = new Tickets<>();
            node = new HardNode<>(key, h, tickets, now);
            addTicket(node, tickets, value, now);
        } else if (soft) {
            node = new SoftNode<>(key, h, value, now, queue);
        } else {
            node = new HardNode<>(key, h, value, now);
        }

        if (found != null) {
            unchain(t, i, foundPrev, found);
            release(found);
            if (last == found) {
                last = foundPrev;
            }
        } else if (sameHash >= MAX_SAME_HASH) {
            // the crowd of this hash is full: its oldest goes
            unchain(t, i, oldestPrev, oldest);
            release(oldest);
            if (last == oldest) {
                last = oldestPrev;
            }
        } else if (!tKeyed && others + sameHash >= MAX_IDENTITY_BUCKET) {
            // a crowded bucket not yet moved to the keyed layout: its
            // first node, the oldest of its hash, goes (not the last)
            Node<K,V> first = bucket(t, i);
            unchain(t, i, null, first);
            release(first);
        }
        linkAfter(t, length, i, last, node);
        append(node);
        count++;
        if (maxSize > 0 && count > maxSize) {
            // the oldest goes: an expired one, or else the oldest live one
            unlink(head);
        }
    }

    /**
     * Returns the value of a key, or {@code null} if it has none, or its
     * entry expired or its soft value was cleared. For a key with a queue
     * of values, removes and returns the oldest value that has neither
     * expired nor been cleared, and removes the key when its queue is left
     * empty. Does not change the order of the entries.
     *
     * @param key the key
     * @return the value, or {@code null}
     */
    @Override
    public synchronized V get(Object key) {
        drainQueue(MAX_CLEARED_PER_OP);
        Node<K,V> n = find(key);
        if (n == null) {
            return null;
        }
        long now = now();
        if (expired(n.time(), now)) {
            unlink(n);
            return null;
        }
        Tickets<K,V> tickets = n.tickets();
        if (tickets != null) {
            V v = takeTicket(tickets, now);
            if (tickets.deque.isEmpty()) {
                unlink(n);
            }
            return v;
        }
        V v = n.value();
        if (v == null && n instanceof SoftNode) {
            unlink(n);          // cleared, not yet queued
        }
        return v;
    }

    /**
     * Removes the entry of a key, if there is one.
     *
     * @param key the key
     */
    @Override
    public synchronized void remove(Object key) {
        drainQueue(MAX_CLEARED_PER_OP);
        int h = Objects.hashCode(key);
        Node<K,V>[][] t = table;
        if (t == null) {
            return;
        }
        int i;
        if (oldTable != null
                && (i = index(h, oldKeyed, oldLength)) >= migrated) {
            t = oldTable;
        } else {
            i = index(h, keyed, tableLength);
        }
        Node<K,V> prev = null;
        for (Node<K,V> p = bucket(t, i); p != null; prev = p, p = p.chain()) {
            Object k;
            if (p.hash() == h && ((k = p.key()) == key
                    || (key != null && key.equals(k)))) {
                unchain(t, i, prev, p);
                release(p);
                return;
            }
        }
    }

    /**
     * Removes the entry of a key and returns its value, as {@link #get}
     * would have returned it; for a key with a queue of values, the whole
     * queue goes.
     *
     * @param key the key
     * @return the value, or {@code null}
     */
    @Override
    public synchronized V pull(Object key) {
        drainQueue(MAX_CLEARED_PER_OP);
        Node<K,V> n = find(key);
        if (n == null) {
            return null;
        }
        long now = now();
        V v = null;
        if (!expired(n.time(), now)) {
            Tickets<K,V> tickets = n.tickets();
            v = tickets != null ? takeTicket(tickets, now) : n.value();
        }
        unlink(n);
        return v;
    }

    /**
     * Sets the maximum number of entries. Entries that expired, or whose
     * soft values were cleared (queued or not), or whose queues hold no
     * value left, are removed first: a live entry must not go while such
     * entries take its place. Then the oldest entries go until the cache
     * fits. Looks at every entry.
     *
     * @param size the maximum number of entries; zero or negative means
     *        unbounded
     */
    @Override
    public synchronized void setCapacity(int size) {
        drainQueue(Integer.MAX_VALUE);
        long now = now();
        for (Node<K,V> n = head; n != null; ) {
            Node<K,V> next = n.after();
            if (!isLive(n, now)) {
                unlink(n);
            }
            n = next;
        }
        maxSize = Math.max(size, 0);
        while (maxSize > 0 && count > maxSize) {
            unlink(head);
        }
    }

    /**
     * Sets the lifetime of entries, counted from each entry's put (or
     * queued value's), also for the entries already cached, as
     * {@code SSLSessionContext.setSessionTimeout} specifies for sessions.
     * So an entry or a queued value that had expired stays expired: before
     * a longer lifetime or none is set, every one that expired is removed.
     * Entries cached while there was no lifetime count from this call.
     *
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     */
    @Override
    public synchronized void setTimeout(int timeout) {
        drainQueue(MAX_CLEARED_PER_OP);
        long next = toNanos(timeout);
        if (lifetime != 0 && (next == 0 || next > lifetime)) {
            long now = clock.getAsLong();
            expunge(now, Integer.MAX_VALUE);
            if (maxQueueSize > 0) {
                // A queue's older values may have expired in a live
                // entry: the queues have to be looked at one by one.
                for (Node<K,V> n = head; n != null; ) {
                    Node<K,V> after = n.after();
                    Tickets<K,V> tickets = n.tickets();
                    if (tickets != null) {
                        dropDeadTickets(tickets, now);
                        if (tickets.deque.isEmpty()) {
                            unlink(n);
                        }
                    }
                    n = after;
                }
            }
        } else if (lifetime == 0 && next != 0) {
            // entries put without a lifetime have no time (see now()):
            // they count from now, all of them
            long now = clock.getAsLong();
            for (Node<K,V> n = head; n != null; n = n.after()) {
                n.time(now);
                Tickets<K,V> tickets = n.tickets();
                if (tickets != null) {
                    for (Ticket<K,V> ticket : tickets.deque) {
                        ticket.time = now;
                    }
                }
            }
            hollowQueues = false;       // every time is now
        }
        lifetime = next;
    }

    /**
     * Hands a snapshot of the live entries to a visitor: the entries that
     * have not expired and whose soft values are not cleared, and for a
     * key with a queue, the value {@link #get} would return next (which
     * stays queued). The visitor runs without the cache's lock, so it may
     * use the cache.
     *
     * @param visitor the visitor
     */
    @Override
    public void accept(CacheVisitor<K,V> visitor) {
        Map<K,V> snapshot;
        synchronized (this) {
            drainQueue(Integer.MAX_VALUE);
            long now = now();
            expunge(now, Integer.MAX_VALUE);
            // no rehash while filling, and no overflow for large counts
            snapshot = new HashMap<>((int) Math.min(count * 4L / 3 + 1,
                    1 << 30));
            // after the expunge, no node of the list has expired
            for (Node<K,V> n = head; n != null; ) {
                Node<K,V> after = n.after();
                Tickets<K,V> tickets = n.tickets();
                if (tickets != null) {
                    V v = peekTicket(tickets, now);
                    if (v != null) {
                        snapshot.put(n.key(), v);
                    } else {
                        unlink(n);      // a hollow queue with nothing left
                    }
                } else {
                    V v = n.value();
                    if (v != null || !(n instanceof SoftNode)) {
                        snapshot.put(n.key(), v);
                    } else {
                        unlink(n);      // cleared, not yet queued
                    }
                }
                n = after;
            }
        }
        visitor.visit(snapshot);
    }

    // ---- purges

    /**
     * Removes up to {@code max} expired nodes, oldest first. The walk stops
     * at the first live node: all nodes after it are younger.
     */
    private void expunge(long now, int max) {
        if (lifetime == 0) {
            return;
        }
        while (max-- > 0 && head != null && expired(head.time(), now)) {
            unlink(head);
        }
    }

    /**
     * Removes the nodes, and the queued values, whose soft references the
     * collector cleared and queued: up to {@code max} references.
     */
    private void drainQueue(int max) {
        if (queue == null) {
            return;
        }
        for (int i = 0; i < max; i++) {
            Object r = queue.poll();
            if (r == null) {
                return;
            }
            if (r instanceof Ticket<?,?>) {
                @SuppressWarnings("unchecked")
                Ticket<K,V> ticket = (Ticket<K,V>) r;
                Node<K,V> owner = ticket.owner;
                if (owner != null) {        // else handed out or dropped
                    Tickets<K,V> tickets = owner.tickets();
                    // all its cleared values at once: the queue's other
                    // references then find their owner gone
                    tickets.deque.removeIf(MemoryCache::disposeIfCleared);
                    if (tickets.deque.isEmpty()) {
                        unlink(owner);
                    } else {
                        noteHollow(tickets);
                    }
                }
            } else {
                @SuppressWarnings("unchecked")
                SoftNode<K,V> n = (SoftNode<K,V>) r;
                if (!n.isRemoved()) {
                    unlink(n);
                }
            }
        }
    }

    /**
     * Whether a node would be shown by {@link #accept}; drops the dead
     * values of its queue on the way.
     */
    private boolean isLive(Node<K,V> n, long now) {
        if (expired(n.time(), now)) {
            return false;
        }
        Tickets<K,V> tickets = n.tickets();
        if (tickets != null) {
            dropDeadTickets(tickets, now);
            return !tickets.deque.isEmpty();
        }
        return n.value() != null || !(n instanceof SoftNode);
    }

    // ---- queues of values

    private static <K,V> boolean disposeIfCleared(Ticket<K,V> t) {
        if (t.value() == null) {
            t.dispose();
            return true;
        }
        return false;
    }

    /** Drops every ticket that expired or was cleared. */
    private void dropDeadTickets(Tickets<K,V> tickets, long now) {
        if (tickets.deque.removeIf(t -> {
            if (expired(t.time, now) || t.value() == null) {
                t.dispose();
                return true;
            }
            return false;
        })) {
            noteHollow(tickets);
        }
    }

    /**
     * Whether a node's newest ticket went before it: the node's time is
     * later than every ticket left.
     */
    private static <K,V> boolean isHollow(Node<K,V> n, Tickets<K,V> tickets) {
        Ticket<K,V> newest = tickets.deque.peekLast();
        return newest != null && newest.time != n.time();
    }

    /** Notes a queue that lost tickets, if it lost its newest one. */
    private void noteHollow(Tickets<K,V> tickets) {
        Ticket<K,V> newest = tickets.deque.peekLast();
        if (newest != null && newest.owner != null
                && isHollow(newest.owner, tickets)) {
            hollowQueues = true;
        }
    }

    /**
     * Queues a value as the newest ticket of a key. Dead tickets at the
     * head go first, then the oldest one if the queue is still full.
     */
    private void addTicket(Node<K,V> owner, Tickets<K,V> tickets, V value,
            long now) {
        ArrayDeque<Ticket<K,V>> deque = tickets.deque;
        Ticket<K,V> first;
        while ((first = deque.peekFirst()) != null
                && (expired(first.time, now) || first.value() == null)) {
            deque.removeFirst().dispose();
        }
        if (deque.size() >= maxQueueSize) {
            deque.removeFirst().dispose();
        }
        deque.addLast(new Ticket<>(owner, value, now, queue));
    }

    /** Removes and returns the oldest live ticket's value, or null. */
    private V takeTicket(Tickets<K,V> tickets, long now) {
        Ticket<K,V> t;
        while ((t = tickets.deque.pollFirst()) != null) {
            V v = expired(t.time, now) ? null : t.value();
            t.dispose();
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** Returns the oldest live ticket's value, without taking it. */
    private V peekTicket(Tickets<K,V> tickets, long now) {
        for (Ticket<K,V> t : tickets.deque) {
            V v = expired(t.time, now) ? null : t.value();
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    // ---- the table

    /**
     * The bucket of hash code {@code h} in a table of {@code length}
     * buckets of a layout: the identity layout takes HashMap's spread of
     * the hash code, the keyed one {@link #keyedHash}; see
     * {@link #REKEY_AT}.
     */
    private int index(int h, boolean keyed, int length) {
        return (keyed ? keyedHash(h) : h ^ (h >>> 16)) & (length - 1);
    }

    /**
     * A hash code {@code h}, mixed: the bits above the low 8 are XORed with
     * this cache's random seed and put through MurmurHash3's 32-bit
     * finalizer, m; the hash is m's low 24 bits, then the low 8 bits of
     * the hash code plus m's top 8 bits (which the hash has nowhere else),
     * modulo 256.
     *
     * <p>Within a block of 256 hash codes that differ in the low 8 bits
     * only, m is the same and the low bits are rotated: keys whose hash
     * codes are close (consecutive Integers, which HashMap's spread keeps
     * in consecutive buckets) fill a run of 256 buckets, sixteen 64-byte
     * lines of the table in order with compressed oops, so a walk over
     * such keys reads the table as a walk over a HashMap's does, with one
     * jump per 256 keys; with fewer close codes in a run (4 bits), the
     * walks of a lookup benchmark over consecutive Integers were 10-30%
     * slower. Hash codes with equal low bits (multiples of 256) still use
     * every bucket. The other bits reach every bit of the index through a
     * seed nobody outside knows, so keys whose hash codes differ beyond
     * the low 8 bits share a bucket by chance only, whatever the size of
     * the table. In a table of n &lt; 256 buckets, a chosen block of 256
     * hash codes can put at most 256 / n different ones in one bucket,
     * each at most MAX_SAME_HASH times, and the table holds fewer than
     * 3n / 4 nodes: at most 32 (n = 64) share a bucket that way, and a
     * growth never has a larger crowd to move. (A mix of the high 16 bits alone
     * would leave keys whose hash codes differ in one bit b &lt; 16 in one
     * bucket until the table grows past 2^b buckets, and then split that
     * crowd in one put.) Two different hash codes give equal mixes with a
     * chance of 2^-32 (never within a block), which only puts them in one
     * bucket.
     */
    private int keyedHash(int h) {
        int m = (h >>> 8) ^ seed;
        m ^= m >>> 16;
        m *= 0x85EBCA6B;
        m ^= m >>> 13;
        m *= 0xC2B2AE35;
        m ^= m >>> 16;
        return (m << 8) | ((h + (m >>> 24)) & 0xFF);
    }

    /** The key's node, or null; walks one bucket. */
    private Node<K,V> find(Object key) {
        int h = Objects.hashCode(key);
        Node<K,V>[][] t = table;
        if (t == null) {
            return null;
        }
        int i;
        if (oldTable != null
                && (i = index(h, oldKeyed, oldLength)) >= migrated) {
            t = oldTable;
        } else {
            i = index(h, keyed, tableLength);
        }
        for (Node<K,V> p = bucket(t, i); p != null; p = p.chain()) {
            Object k;
            if (p.hash() == h && ((k = p.key()) == key
                    || (key != null && key.equals(k)))) {
                return p;
            }
        }
        return null;
    }

    /**
     * Makes the table ready for a put: allocates it at the first put,
     * starts a migration, a growth when it is 3/4 full or a switch to the
     * keyed layout when one is due (and no migration is in progress), and
     * moves a few buckets of a migration in progress.
     */
    private void prepareTable() {
        if (table == null) {
            tableLength = MIN_TABLE;
            table = newTable(MIN_TABLE);
        } else if (oldTable == null && (rekeyDue
                || count >= tableLength / 4 * 3 && tableLength < MAX_TABLE)) {
            // Nothing moves now: the old table stays in use, and its
            // buckets move a few per put. The new table's segments are
            // allocated as they are first written. A switch allocates
            // them first and then moves every bucket as a growth does;
            // if a growth would fall due before it ends, it grows the
            // table too.
            int length = tableLength;
            int puts = tableLength / MIGRATE_PER_PUT;
            if (rekeyDue) {
                // the segments of a doubled table, SEGMENTS_PER_PUT a put
                puts += (2 * tableLength >>> SEGMENT_SHIFT) / SEGMENTS_PER_PUT
                        + 1;
            }
            if (count + puts >= tableLength / 4 * 3
                    && tableLength < MAX_TABLE) {
                length *= 2;
            }
            oldTable = table;
            oldLength = tableLength;
            oldKeyed = keyed;
            keyed |= rekeyDue;
            rekeyDue = false;
            tableLength = length;
            table = newTable(length);
            migrated = 0;
            segmentsMade = 0;
        }
        if (oldTable != null) {
            migrate(MIGRATE_PER_PUT);
        }
    }

    /**
     * Moves up to {@code max} buckets of the old table into the new one.
     * In a growth within one layout, old bucket i splits into buckets i
     * and i + oldLength, which are empty until then (nodes of their hashes
     * went to old bucket i), each side keeping its order. In a switch of
     * layout, each node of old bucket i goes, in order, to the end of its
     * bucket in the new layout, which may hold nodes of other old buckets
     * and of puts since, but none of its hash.
     *
     * <p>A switch writes the new table all over, so the nodes of the first
     * buckets it moved would each need a segment of their own: chosen keys
     * could make one put allocate dozens. So a switch first allocates the
     * new table's segments, SEGMENTS_PER_PUT a put, and moves no bucket
     * until all exist; meanwhile every lookup and put uses the old table,
     * as none of its buckets has moved.
     */
    private void migrate(int max) {
        Node<K,V>[][] old = oldTable;
        boolean split = oldKeyed == keyed;
        if (!split && segmentsMade < table.length) {
            for (int k = 0; k < SEGMENTS_PER_PUT
                    && segmentsMade < table.length; k++) {
                segment(table, tableLength, segmentsMade++);
            }
            return;
        }
        for (; max > 0 && migrated < oldLength; max--) {
            int i = migrated++;
            Node<K,V>[] s = old[i >>> SEGMENT_SHIFT];
            Node<K,V> n = s == null ? null : s[i & (SEGMENT - 1)];
            if (n != null && !split) {
                s[i & (SEGMENT - 1)] = null;
                while (n != null) {
                    Node<K,V> next = n.chain();
                    int j = index(n.hash(), keyed, tableLength);
                    Node<K,V> last = null;
                    for (Node<K,V> p = bucket(table, j); p != null;
                            p = p.chain()) {
                        last = p;
                    }
                    linkAfter(table, tableLength, j, last, n);
                    n = next;
                }
            } else if (n != null) {
                s[i & (SEGMENT - 1)] = null;
                Node<K,V> lo = null;
                Node<K,V> loTail = null;
                Node<K,V> hi = null;
                Node<K,V> hiTail = null;
                while (n != null) {
                    Node<K,V> next = n.chain();
                    n.chain(null);
                    if ((index(n.hash(), keyed, tableLength) & oldLength)
                            == 0) {
                        if (loTail == null) {
                            lo = n;
                        } else {
                            loTail.chain(n);
                        }
                        loTail = n;
                    } else {
                        if (hiTail == null) {
                            hi = n;
                        } else {
                            hiTail.chain(n);
                        }
                        hiTail = n;
                    }
                    n = next;
                }
                if (lo != null) {
                    setBucket(table, tableLength, i, lo);
                }
                if (hi != null) {
                    setBucket(table, tableLength, i + oldLength, hi);
                }
            }
            if ((migrated & (SEGMENT - 1)) == 0) {
                old[i >>> SEGMENT_SHIFT] = null;    // emptied: free it now
            }
        }
        if (migrated == oldLength) {
            oldTable = null;
            oldLength = 0;
            migrated = 0;
        }
    }

    /** The top array of a table of {@code length} buckets; no segments. */
    @SuppressWarnings("unchecked")
    private static <K,V> Node<K,V>[][] newTable(int length) {
        return (Node<K,V>[][]) new Node<?,?>[
                (length + SEGMENT - 1) >>> SEGMENT_SHIFT][];
    }

    private static <K,V> Node<K,V> bucket(Node<K,V>[][] t, int i) {
        Node<K,V>[] s = t[i >>> SEGMENT_SHIFT];
        return s == null ? null : s[i & (SEGMENT - 1)];
    }

    /** Sets bucket i, allocating its segment when first written. */
    private static <K,V> void setBucket(Node<K,V>[][] t, int length, int i,
            Node<K,V> n) {
        if (n != null || t[i >>> SEGMENT_SHIFT] != null) {
            segment(t, length, i >>> SEGMENT_SHIFT)[i & (SEGMENT - 1)] = n;
        }
    }

    /** Segment si of a table of {@code length} buckets, allocated if new. */
    @SuppressWarnings("unchecked")
    private static <K,V> Node<K,V>[] segment(Node<K,V>[][] t, int length,
            int si) {
        Node<K,V>[] s = t[si];
        if (s == null) {
            s = (Node<K,V>[]) new Node<?,?>[Math.min(length, SEGMENT)];
            t[si] = s;
        }
        return s;
    }

    /** Links n into bucket i after {@code last}, its last node (or first). */
    private static <K,V> void linkAfter(Node<K,V>[][] t, int length, int i,
            Node<K,V> last, Node<K,V> n) {
        n.chain(null);
        if (last == null) {
            setBucket(t, length, i, n);
        } else {
            last.chain(n);
        }
    }

    /** Unlinks n, which follows {@code prev} (or is first), from bucket i. */
    private static <K,V> void unchain(Node<K,V>[][] t, int i, Node<K,V> prev,
            Node<K,V> n) {
        if (prev == null) {
            t[i >>> SEGMENT_SHIFT][i & (SEGMENT - 1)] = n.chain();
        } else {
            prev.chain(n.chain());
        }
    }

    /**
     * Removes a node from its bucket, found by identity where its stored
     * hash puts it (never by its key, which may have changed since).
     */
    private void removeFromTable(Node<K,V> n) {
        int h = n.hash();
        Node<K,V>[][] t = table;
        int i;
        if (oldTable != null
                && (i = index(h, oldKeyed, oldLength)) >= migrated) {
            t = oldTable;
        } else {
            i = index(h, keyed, tableLength);
        }
        Node<K,V> prev = null;
        for (Node<K,V> p = bucket(t, i); p != null; prev = p, p = p.chain()) {
            if (p == n) {
                unchain(t, i, prev, p);
                return;
            }
        }
        assert false : "a node of the list is in no bucket";
    }

    // ---- the list

    private void append(Node<K,V> n) {
        n.before(tail);
        n.after(null);
        if (tail == null) {
            head = n;
        } else {
            tail.after(n);
        }
        tail = n;
    }

    private void detach(Node<K,V> n) {
        Node<K,V> b = n.before();
        Node<K,V> a = n.after();
        if (b == null) {
            head = a;
        } else {
            b.after(a);
        }
        if (a == null) {
            tail = b;
        } else {
            a.before(b);
        }
    }

    /** Removes a node from the cache. */
    private void unlink(Node<K,V> n) {
        removeFromTable(n);
        release(n);
    }

    /**
     * Removes a node that is out of the table from the list, and drops its
     * key and value (and its queue's).
     */
    private void release(Node<K,V> n) {
        detach(n);
        count--;
        Tickets<K,V> tickets = n.tickets();
        if (tickets != null) {
            for (Ticket<K,V> t : tickets.deque) {
                t.dispose();
            }
            tickets.deque.clear();
        }
        n.dispose();
    }

    // ---- nodes

    /**
     * An entry: a node of a hash bucket and of the list in one object. Two
     * classes implement it, so that a hard entry pays for no reference
     * object and a soft entry needs no second object.
     */
    private interface Node<K,V> {
        /** The key's hashCode when the node was made. */
        int hash();
        K key();
        /** The value; null if a soft value was cleared, or for a queue. */
        V value();
        /** The values queued under this key, or null. */
        Tickets<K,V> tickets();
        Node<K,V> chain();              // next in the bucket
        void chain(Node<K,V> n);
        Node<K,V> before();             // older in the list
        void before(Node<K,V> n);
        Node<K,V> after();              // newer in the list
        void after(Node<K,V> n);
        /** When put or last queued into: a value of the clock, or 0. */
        long time();
        void time(long t);
        /** Drops key, value and links, so a removed node holds nothing. */
        void dispose();
    }

    /** An entry that holds its value strongly, or a key's queue. */
    private static final class HardNode<K,V> implements Node<K,V> {
        private final int hash;
        private K key;
        private Object value;           // V, or Tickets<K,V> for a queue
        private Node<K,V> chain;
        private Node<K,V> before;
        private Node<K,V> after;
        private long time;

        HardNode(K key, int hash, Object value, long time) {
            this.hash = hash;
            this.key = key;
            this.value = value;
            this.time = time;
        }

        @Override public int hash() { return hash; }
        @Override public K key() { return key; }
        @Override public Node<K,V> chain() { return chain; }
        @Override public void chain(Node<K,V> n) { chain = n; }
        @Override public Node<K,V> before() { return before; }
        @Override public void before(Node<K,V> n) { before = n; }
        @Override public Node<K,V> after() { return after; }
        @Override public void after(Node<K,V> n) { after = n; }
        @Override public long time() { return time; }
        @Override public void time(long t) { time = t; }

        // Tickets is private to this class: no caller's value is one.
        @Override
        @SuppressWarnings("unchecked")
        public V value() {
            return value instanceof Tickets<?,?> ? null : (V) value;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Tickets<K,V> tickets() {
            return value instanceof Tickets<?,?> ? (Tickets<K,V>) value : null;
        }

        @Override
        public void dispose() {
            key = null;
            value = null;
            chain = null;
            before = null;
            after = null;
        }
    }

    /** An entry that is itself the soft reference to its value. */
    private static final class SoftNode<K,V> extends SoftReference<V>
            implements Node<K,V> {
        private final int hash;
        private K key;
        private Node<K,V> chain;
        private Node<K,V> before;
        private Node<K,V> after;        // this node once removed
        private long time;

        SoftNode(K key, int hash, V value, long time,
                ReferenceQueue<V> queue) {
            super(value, queue);
            this.hash = hash;
            this.key = key;
            this.time = time;
        }

        @Override public int hash() { return hash; }
        @Override public K key() { return key; }
        @Override public V value() { return get(); }
        @Override public Tickets<K,V> tickets() { return null; }
        @Override public Node<K,V> chain() { return chain; }
        @Override public void chain(Node<K,V> n) { chain = n; }
        @Override public Node<K,V> before() { return before; }
        @Override public void before(Node<K,V> n) { before = n; }
        @Override public Node<K,V> after() { return after; }
        @Override public void after(Node<K,V> n) { after = n; }
        @Override public long time() { return time; }
        @Override public void time(long t) { time = t; }

        /**
         * Whether the node left the cache: the collector may queue its
         * reference after that, and the queue's poll must skip it.
         */
        boolean isRemoved() {
            return after == this;
        }

        @Override
        public void dispose() {
            clear();
            key = null;
            chain = null;
            before = null;
            after = this;
        }
    }

    /**
     * One value queued under a key: a soft reference to it in a soft
     * cache, else a strong one.
     */
    private static final class Ticket<K,V> extends SoftReference<V> {
        long time;                      // when queued, or set by setTimeout
        Node<K,V> owner;                // null once handed out or dropped
        private Object hard;            // the value in a hard cache

        Ticket(Node<K,V> owner, V value, long time, ReferenceQueue<V> queue) {
            super(queue == null ? null : value, queue);
            this.owner = owner;
            this.time = time;
            this.hard = queue == null ? value : null;
        }

        /** The value; null if cleared, handed out or dropped. */
        @SuppressWarnings("unchecked")
        V value() {
            return owner == null ? null : hard != null ? (V) hard : get();
        }

        void dispose() {
            clear();
            hard = null;
            owner = null;
        }
    }

    /**
     * The values queued under a key, oldest first. Its own class, so that
     * a HardNode tells a queue from a value of any caller's type.
     */
    private static final class Tickets<K,V> {
        // Grows with the values actually queued: the maximum queue size may
        // be Integer.MAX_VALUE, so it must never size an allocation.
        final ArrayDeque<Ticket<K,V>> deque = new ArrayDeque<>();
    }
}
