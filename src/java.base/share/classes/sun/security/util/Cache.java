/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package sun.security.util;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * A bounded key-value cache with an optional lifetime for its entries,
 * and the factory for its implementations.
 *
 * <p>The memory caches returned by the factory methods have these
 * properties:
 * <ul>
 * <li>keys and values are held in memory, values either strongly or
 *     through {@link SoftReference}s, so that the garbage collector may
 *     drop them under memory pressure;
 * <li>a maximum size; when a put would exceed it, the entry that was put
 *     longest ago is dropped (first in, first out; reading an entry does
 *     not change its place);
 * <li>an optional lifetime in seconds, counted from the moment an entry
 *     was put, measured with {@link System#nanoTime()} so that stepping the
 *     wall clock has no effect; changing the lifetime applies to the
 *     entries already cached; while a cache has no lifetime its entries
 *     do not age, and when one is set their age counts from then;
 * <li>the work of an operation does not grow with the number of entries
 *     or with how many of them expire at once: expired entries are removed
 *     a few at a time by the operations that follow, keys with equal hash
 *     codes cost O(log n) for {@code String} and {@link EqualByteArray}
 *     keys, and the hash table grows a few buckets and at most a few
 *     fixed-size segments at a time. The exceptions: {@link #size()}
 *     finishes removing expired entries, {@link #accept} copies the live
 *     entries, {@link #setCapacity} drops entries, and an operation on a
 *     key's queue of values (see {@link #newSoftMemoryQueue(int, int, int)})
 *     costs up to that queue's length;
 * <li>safe for concurrent use by multiple threads.
 * </ul>
 *
 * <p>A size or a lifetime that is zero or negative means "unbounded".
 * Keys and values may be {@code null}, as in earlier releases; a soft cache
 * cannot tell a {@code null} value from one the garbage collector cleared,
 * so putting {@code null} into a soft cache removes the key.
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values
 */
public abstract class Cache<K,V> {

    /**
     * Constructor for subclasses.
     */
    protected Cache() {
        // nothing to initialize
    }

    /**
     * Returns the number of entries that have not expired.
     *
     * @return the number of entries in the cache
     */
    public abstract int size();

    /**
     * Removes every entry.
     */
    public abstract void clear();

    /**
     * Puts a value into the cache under a key, replacing any value the key
     * had. The entry's age counts from now (or, while the cache has no
     * lifetime, from the moment one is set: see {@link #setTimeout}).
     *
     * @param key the key
     * @param value the value
     */
    public abstract void put(K key, V value);

    /**
     * Puts a value into the cache, appending it to the key's queue of values
     * when {@code canQueue} is true and the cache was created with
     * {@link #newSoftMemoryQueue}. Otherwise it is the same as
     * {@link #put(Object, Object)}. A queued value is handed out once, by
     * {@link #get}, oldest first. A caller should use the same
     * {@code canQueue} for a key every time: a put without queueing replaces
     * the key's whole queue.
     *
     * @param key the key
     * @param value the value
     * @param canQueue whether the value may be queued under the key
     */
    public void put(K key, V value, boolean canQueue) {
        put(key, value);
    }

    /**
     * Returns the value cached under a key. For a key with a queue of
     * values, removes and returns the oldest value that has not expired.
     *
     * @param key the key
     * @return the value, or {@code null} if there is none or it expired
     */
    public abstract V get(Object key);

    /**
     * Removes the entry for a key, if there is one.
     *
     * @param key the key
     */
    public abstract void remove(Object key);

    /**
     * Removes the entry for a key and returns its value (for a key with a
     * queue of values, the oldest value that has not expired).
     *
     * @param key the key
     * @return the value, or {@code null} if there is none or it expired
     */
    public abstract V pull(Object key);

    /**
     * Sets the maximum number of entries, dropping the oldest entries if
     * there are more.
     *
     * @param size the maximum number of entries; zero or negative means
     *        unbounded
     */
    public abstract void setCapacity(int size);

    /**
     * Sets the lifetime of entries, including those already cached: an
     * entry expires once it has been in the cache for {@code timeout}
     * seconds, counted from its put or, if the cache had no lifetime, from
     * this call (entries do not age while there is none). An entry that
     * had already expired stays expired.
     *
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     */
    public abstract void setTimeout(int timeout);

    /**
     * Hands a snapshot of the entries that have not expired to a visitor.
     * The visitor may call this cache.
     *
     * @param visitor the visitor
     */
    public abstract void accept(CacheVisitor<K,V> visitor);

    /**
     * Returns a memory cache with the given maximum size whose entries do
     * not expire, with values held through soft references.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newSoftMemoryCache(int size) {
        return new MemoryCache<>(true, size, 0, 0);
    }

    /**
     * Returns a memory cache with the given maximum size and lifetime, with
     * values held through soft references.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newSoftMemoryCache(int size, int timeout) {
        return new MemoryCache<>(true, size, timeout, 0);
    }

    /**
     * Returns a memory cache with the given maximum size and lifetime, with
     * values held through soft references, that keeps up to
     * {@code maxQueueSize} values per key when they are put with
     * {@code canQueue} (see {@link #put(Object, Object, boolean)}).
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum number of keys; zero or negative means
     *        unbounded
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     * @param maxQueueSize the maximum number of values queued per key;
     *        zero means values are never queued
     * @return a new cache
     * @throws IllegalArgumentException if {@code maxQueueSize} is negative
     */
    public static <K,V> Cache<K,V> newSoftMemoryQueue(int size, int timeout,
            int maxQueueSize) {
        return new MemoryCache<>(true, size, timeout, maxQueueSize);
    }

    /**
     * Returns a memory cache with the given maximum size whose entries do
     * not expire, with values held strongly.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newHardMemoryCache(int size) {
        return new MemoryCache<>(false, size, 0, 0);
    }

    /**
     * Returns a memory cache with the given maximum size and lifetime, with
     * values held strongly.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newHardMemoryCache(int size, int timeout) {
        return new MemoryCache<>(false, size, timeout, 0);
    }

    /**
     * Returns a cache that holds nothing.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @return the cache that holds nothing
     */
    @SuppressWarnings("unchecked")
    public static <K,V> Cache<K,V> newNullCache() {
        return (Cache<K,V>) NullCache.INSTANCE;
    }

    /**
     * A byte array key, equal to another one with the same contents.
     * The array is not copied: it must not change while the key is in use.
     */
    public static class EqualByteArray {

        // package-private: MemoryCache orders colliding keys by contents
        final byte[] b;
        // computed lazily; 0 also for an empty array, which is cheap anyway
        private int hash;

        /**
         * Wraps a byte array.
         *
         * @param b the array
         * @throws NullPointerException if {@code b} is null
         */
        public EqualByteArray(byte[] b) {
            this.b = Objects.requireNonNull(b, "byte array");
        }

        /**
         * Returns a hash code that depends on the contents of the array.
         *
         * @return the hash code
         */
        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                h = Arrays.hashCode(b);
                hash = h;
            }
            return h;
        }

        /**
         * Returns whether another object is an {@code EqualByteArray} with
         * the same contents.
         *
         * @param obj the other object
         * @return true if the contents are equal
         */
        @Override
        public boolean equals(Object obj) {
            return obj == this
                    || (obj instanceof EqualByteArray other
                        && Arrays.equals(b, other.b));
        }
    }

    /**
     * Receives the entries of a cache from {@link Cache#accept}.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     */
    public interface CacheVisitor<K,V> {

        /**
         * Visits the entries of the cache.
         *
         * @param map a snapshot of the entries, owned by the visitor
         */
        void visit(Map<K,V> map);
    }
}

/**
 * The cache that holds nothing.
 */
final class NullCache<K,V> extends Cache<K,V> {

    static final Cache<Object,Object> INSTANCE = new NullCache<>();

    private NullCache() {
    }

    @Override
    public int size() {
        return 0;
    }

    @Override
    public void clear() {
    }

    @Override
    public void put(K key, V value) {
    }

    @Override
    public V get(Object key) {
        return null;
    }

    @Override
    public void remove(Object key) {
    }

    @Override
    public V pull(Object key) {
        return null;
    }

    @Override
    public void setCapacity(int size) {
    }

    @Override
    public void setTimeout(int timeout) {
    }

    @Override
    public void accept(CacheVisitor<K,V> visitor) {
    }
}

/**
 * The memory cache.
 *
 * <p>Entries are nodes that live in two structures at once: a hash table
 * (chained, grown incrementally so that no single put rehashes the whole
 * table) and a doubly linked list in insertion order. Every node records
 * when it was put; all nodes share the cache's current lifetime, so the
 * expired nodes are always a prefix of the list (a node's age counts from
 * its put, or from the moment a lifetime was set on a cache that had
 * none). Each operation but {@code size} and {@code setCapacity} (which
 * drain the whole backlog) polls at most {@link #DRAIN} cleared soft
 * references; each put also removes at
 * most {@code STEP} nodes from that prefix and moves at most {@code STEP}
 * hash buckets, so a burst of expiries is paid off over the puts that
 * follow (get, remove and pull, which add nothing, leave both to the
 * puts and read no clock when entries cannot expire).
 *
 * <p>One node per entry, and no map entry besides it: a {@link HardNode}
 * holds its value, a {@link SoftNode} is itself the soft reference to its
 * value. Both cost less than a LinkedHashMap entry plus a separate cache
 * entry (EntryFootprintTest).
 */
final class MemoryCache<K,V> extends Cache<K,V> {

    /** The most expired nodes or hash buckets one operation handles. */
    static final int STEP = 4;

    /**
     * The most cleared soft references one operation purges. Larger than
     * STEP: memory pressure clears many values at once, and the keys of
     * their entries must be released soon after (earlier releases did at
     * the next operation). 256 unlinks are a few microseconds.
     */
    static final int DRAIN = 256;

    private static final int MIN_TABLE = 16;
    /**
     * Buckets per segment of a table: 8192 references, 32 KiB with
     * compressed oops. A growth allocates the new table's small top array
     * and then one segment at a time, when a put first writes into it.
     */
    static final int SEGMENT_SHIFT = 13;
    static final int SEGMENT = 1 << SEGMENT_SHIFT;
    /** A chain that reaches this many nodes becomes a TreeBin. */
    static final int TREEIFY = 8;
    /**
     * A TreeBin left with this many nodes or fewer (by removals, or by a
     * growth that spread its keys) becomes a chain again: a lookup in a
     * tree allocates a probe and compares through TreeMap, several times
     * the cost of a short chain. Below TREEIFY, so that a bucket cannot
     * flip at every put and remove.
     */
    static final int UNTREEIFY = 6;
    private static final int MAX_TABLE = 1 << 30;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final boolean soft;
    private final int maxQueueSize;
    private final LongSupplier clock;

    private ReferenceQueue<V> queue;     // soft caches only; replaced by clear()

    private Node<K,V>[][] table;         // segments; null until a put
    private int tableLength;             // buckets of table
    private Node<K,V>[][] oldTable;      // being emptied into table, or null
    private int oldLength;               // buckets of oldTable
    private int migrated;                // buckets of oldTable already moved
    private final int seed;              // mixed into every hash
    private Node<K,V> head;              // oldest node
    private Node<K,V> tail;              // newest node
    private int count;                   // nodes in the list (and the table)

    private int maxSize;                 // 0: unbounded
    private long lifetime;               // nanoseconds; 0: no expiry
    // Nodes put at or before floor had expired when the lifetime last
    // changed; they stay expired even if the new lifetime is longer.
    private long floor;
    private boolean floorActive;
    // Tickets are older than their key's node (the node moves to the tail
    // when a ticket is added), so they outlive the node's floor. Invariant:
    // a ticket put at or before ticketFloor (if ticketFloorSet) has
    // expired for good; every Tickets whose gen equals floorGen holds no
    // such ticket and no ticket older than ticketRenew. floorGen counts the
    // changes of ticketFloor and ticketRenew; ticketFloor is the latest of
    // all floors ever set, so it is never dropped.
    private long ticketFloor;
    private long floorGen;
    // While the lifetime is 0 entries do not age, and a put reads no
    // clock: it stamps the node with `stamp`, the time the lifetime last
    // became 0 (or the construction), which keeps the list's times in
    // order. When a lifetime is set on a cache that had none, every entry
    // cached then counts as put at that moment, `renew`: a node's age is
    // counted from max(time, renew) while renewActive (dropped once the
    // oldest node is newer, like the floor). Tickets keep their own times:
    // ticketRenew is the latest renew, applied to a queue (its times
    // raised) together with ticketFloor when the queue's gen is behind.
    private long stamp;
    private long renew;
    private boolean renewActive;
    private long ticketRenew;
    private boolean ticketRenewSet;
    private boolean ticketFloorSet;

    /**
     * Test hook: how many nodes, buckets and references the maintenance
     * work has examined, so a test can check the work per operation
     * without measuring time.
     */
    long examined;

    MemoryCache(boolean soft, int maxSize, int timeout, int maxQueueSize) {
        this(soft, maxSize, timeout, maxQueueSize, null);
    }

    /**
     * Creates a cache that reads the time from {@code clock} (nanoseconds,
     * like {@link System#nanoTime()}), or from {@code System.nanoTime()}
     * when {@code clock} is null.
     */
    MemoryCache(boolean soft, int maxSize, int timeout, int maxQueueSize,
            LongSupplier clock) {
        if (maxQueueSize < 0) {
            throw new IllegalArgumentException(
                    "negative maximum queue size: " + maxQueueSize);
        }
        this.soft = soft;
        this.maxQueueSize = maxQueueSize;
        this.clock = clock;
        this.queue = soft ? new ReferenceQueue<>() : null;
        this.maxSize = Math.max(maxSize, 0);
        this.lifetime = toNanos(timeout);
        this.seed = ThreadLocalRandom.current().nextInt();
        if (lifetime == 0) {
            this.stamp = now();
        }
    }

    private static long toNanos(int seconds) {
        // at most 2^31 * 10^9 < 2^63: cannot overflow
        return seconds > 0 ? seconds * NANOS_PER_SECOND : 0L;
    }

    private long now() {
        return clock == null ? System.nanoTime() : clock.getAsLong();
    }

    // ---- time

    private boolean expired(long inserted, long now) {
        // differences, never absolute comparisons: nanoTime may wrap
        if (floorActive && inserted - floor <= 0) {
            return true;
        }
        if (lifetime == 0) {
            return false;
        }
        long from = renewActive && inserted - renew < 0 ? renew : inserted;
        return now - from >= lifetime;
    }

    // ---- public operations

    @Override
    public synchronized int size() {
        long now = now();
        drainQueue(Integer.MAX_VALUE);
        expunge(now, Integer.MAX_VALUE);
        return count;
    }

    @Override
    public synchronized void clear() {
        // The nodes become garbage together with the table and the list.
        // References the GC already queued are left behind in the old
        // queue, so they can never be mistaken for nodes of the new table.
        table = null;
        tableLength = 0;
        oldTable = null;
        oldLength = 0;
        migrated = 0;
        head = null;
        tail = null;
        count = 0;
        floorActive = false;
        renewActive = false;
        if (soft) {
            queue = new ReferenceQueue<>();
        }
    }

    @Override
    public void put(K key, V value) {
        put(key, value, false);
    }

    @Override
    public synchronized void put(K key, V value, boolean canQueue) {
        // Everything that runs the key's code (hashCode, equals) happens
        // before anything is unlinked: a key that throws loses nothing.
        int h = hash(key);
        // without a lifetime nothing ages: no clock read (see stamp)
        long now = lifetime > 0 ? now() : stamp;
        maintain(now);
        Node<K,V> old = find(key, h);
        if (value == null && soft) {
            // a soft reference to null looks like a cleared one
            if (old != null) {
                unlink(old);
            }
            return;
        }
        if (canQueue && maxQueueSize > 0) {
            Tickets<K,V> tickets = old == null ? null : old.tickets();
            if (tickets != null && !expired(old.time(), now)) {
                addTicket(old, tickets, value, now);
                moveToTail(old, now);
                return;
            }
            if (old != null) {
                unlink(old);
            }
            // the key's node holds its queue strongly, also in a soft cache
            tickets = new Tickets<>(floorGen);
            HardNode<K,V> n = new HardNode<>(key, h, tickets, now);
            addTicket(n, tickets, value, now);
            insert(n);
            return;
        }
        if (old != null) {
            unlink(old);
        }
        insert(soft ? new SoftNode<>(key, h, value, now, queue)
                    : new HardNode<>(key, h, value, now));
    }

    @Override
    public synchronized V get(Object key) {
        long now = readNow();
        light(now);
        Node<K,V> n = find(key);
        if (n == null) {
            return null;
        }
        if (expired(n.time(), now)) {
            unlink(n);
            return null;
        }
        Tickets<K,V> tickets = n.tickets();
        if (tickets != null) {
            V v = takeTicket(tickets, now);
            if (tickets.isEmpty()) {
                unlink(n);
            }
            return v;
        }
        V v = n.value();
        if (v == null && n instanceof SoftNode) {
            unlink(n);      // cleared by the GC
        }
        return v;
    }

    @Override
    public synchronized void remove(Object key) {
        // removing needs no time: only a pending floor is paid off here
        light(floorActive ? readNow() : 0L);
        Node<K,V> n = takeFromTable(key);
        if (n != null) {
            release(n);
        }
    }

    @Override
    public synchronized V pull(Object key) {
        long now = readNow();
        light(now);
        Node<K,V> n = find(key);
        if (n == null) {
            return null;
        }
        V v = null;
        if (!expired(n.time(), now)) {
            Tickets<K,V> tickets = n.tickets();
            v = tickets != null ? takeTicket(tickets, now) : n.value();
        }
        unlink(n);
        return v;
    }

    @Override
    public synchronized void setCapacity(int size) {
        long now = now();
        maintain(now);
        // Entries whose values were cleared or whose time is up must not
        // count: otherwise live ones would be dropped in their place. As
        // in size(), this is proportional to that backlog, each once.
        drainQueue(Integer.MAX_VALUE);
        expunge(now, Integer.MAX_VALUE);
        maxSize = Math.max(size, 0);
        // the oldest go first, and the expired ones are the oldest
        while (maxSize > 0 && count > maxSize) {
            examined++;
            unlink(head);
        }
    }

    @Override
    public synchronized void setTimeout(int timeout) {
        long now = now();
        maintain(now);
        long next = toNanos(timeout);
        if (lifetime > 0) {
            // Entries that have expired stay expired: those counted from
            // at or before f. A floor at or before renew covers nothing
            // (every age is counted from renew or later), and is not set.
            long f = now - lifetime;
            if ((!renewActive || f - renew >= 0)
                    && (!floorActive || f - floor > 0)) {
                floor = f;
                floorActive = head != null;
            }
            if ((!ticketRenewSet || f - ticketRenew >= 0)
                    && (!ticketFloorSet || f - ticketFloor > 0)) {
                ticketFloor = f;
                ticketFloorSet = true;
                floorGen++;
            }
        } else if (next > 0) {
            // a lifetime on a cache that had none: nothing has aged yet,
            // every entry counts as put now
            renew = now;
            renewActive = head != null;
            ticketRenew = now;
            ticketRenewSet = true;
            floorGen++;
        }
        if (next == 0) {
            stamp = now;
        }
        lifetime = next;
    }

    @Override
    public void accept(CacheVisitor<K,V> visitor) {
        Map<K,V> snapshot;
        synchronized (this) {
            long now = now();
            maintain(now);
            snapshot = new HashMap<>(Math.max(16, (int) (count / 0.75f) + 1));
            // newest first: the walk stops at the first expired node, so it
            // never touches the expired prefix
            for (Node<K,V> n = tail; n != null; n = n.before()) {
                if (expired(n.time(), now)) {
                    break;
                }
                Tickets<K,V> tickets = n.tickets();
                V v = tickets != null ? peekTicket(tickets, now) : n.value();
                if (v != null || n instanceof HardNode && tickets == null) {
                    snapshot.put(n.key(), v);
                }
            }
        }
        // outside the lock: the visitor may use the cache
        visitor.visit(snapshot);
    }

    // ---- bounded maintenance

    /** The bounded work every operation does before its own. */
    private void maintain(long now) {
        if (soft) {
            drainQueue(DRAIN);
        }
        expunge(now, STEP);
        if (oldTable != null) {
            migrate(STEP);
        }
    }

    /**
     * The bounded work of the operations that never add a node (get,
     * remove, pull): purge cleared soft values only. The expired prefix is
     * left to the puts, as earlier releases left it: only a put adds a
     * node, and every put removes up to {@code STEP} expired ones, so
     * memory stays bounded. Expired nodes are never returned (these
     * operations check the node they find) and {@link #size()} finishes
     * the expunge, so it stays exact. A growth in progress is left to the
     * puts too: only a put can start the next one, and puts alone finish a
     * migration first (see {@link #migrate}); meanwhile a lookup probes
     * one bucket, of the old table or the new (see insert), so moving
     * buckets from here would buy nothing. A floor left by
     * {@code setTimeout} is still paid off here, so that it is dropped as
     * soon as possible whatever the workload.
     */
    private void light(long now) {
        if (soft) {
            drainQueue(DRAIN);
        }
        if (floorActive) {
            expunge(now, STEP);
        }
    }

    /**
     * The time for an operation that adds no node: only needed to judge
     * expiry, so not read at all when nothing can expire by time. With no
     * lifetime {@link #expired} looks at the floor only, never at
     * {@code now}.
     */
    private long readNow() {
        return lifetime > 0 ? now() : 0L;
    }

    /** Removes up to {@code budget} expired nodes from the head. */
    private void expunge(long now, int budget) {
        if (lifetime == 0 && !floorActive) {
            return;         // nothing can be expired (renew waits)
        }
        while (budget-- > 0 && head != null) {
            examined++;
            if (!expired(head.time(), now)) {
                break;
            }
            unlink(head);
        }
        if (floorActive && (head == null || head.time() - floor > 0)) {
            // every node put before the floor is gone; drop it before
            // nanoTime can wrap around it
            floorActive = false;
        }
        if (renewActive && (head == null || head.time() - renew >= 0)) {
            renewActive = false;        // likewise
        }
    }

    /** Purges up to {@code budget} nodes and tickets the GC cleared. */
    private void drainQueue(int budget) {
        if (!soft) {
            return;
        }
        while (budget-- > 0) {
            Object r = queue.poll();
            if (r == null) {
                return;
            }
            examined++;
            if (r instanceof Ticket<?,?>) {
                @SuppressWarnings("unchecked")
                Ticket<K,V> t = (Ticket<K,V>) r;
                Node<K,V> owner = t.owner;
                if (owner == null) {
                    continue;       // handed out or dropped already
                }
                Tickets<K,V> tickets = owner.tickets();
                tickets.removeCleared(this);
                if (tickets.isEmpty()) {
                    unlink(owner);
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

    // ---- the table
    //
    // Invariants (checked by the tests through the public operations and
    // by ModelTest against a reference model):
    // - every node in the list is in exactly one bucket: of oldTable if
    //   its old bucket index is >= migrated, else of table; so a bucket of
    //   table is empty until its old bucket has moved, and a lookup probes
    //   one bucket, also during a growth;
    // - node.hash() == hash(node.key()) for this cache's seed;
    // - a bucket holds null, a chain of fewer than TREEIFY nodes linked by
    //   chain(), or one TreeBin of more than UNTREEIFY nodes;
    // - a table is segmented: no array of the cache is longer than SEGMENT
    //   buckets except the small top array, so no single put allocates
    //   (and zeroes) more than a few segments, however large the cache;
    // - oldTable != null only while a growth is in progress, and puts
    //   finish moving it (see migrate) before the next growth can start.

    /**
     * The key's hash as the table uses it: the key's hashCode with its low
     * 16 bits XORed with a mix, keyed by this cache's random seed, of its
     * high 16 bits. That is a bijection of int (the high bits are kept, so
     * equal hashCodes, and only those, give equal hashes). Keys that share
     * their high 16 bits keep their distances (consecutive Integers stay in
     * neighbouring buckets, as with HashMap's spread), so at most
     * 2^(16-k) keys with different hashCodes can be made to share a bucket
     * of a table of 2^k buckets without knowing the seed: the high bits go
     * through the keyed mix. Keys with equal hashCodes share a bucket
     * whatever the mix; a TreeBin bounds their cost.
     */
    private int hash(Object key) {
        int h = key == null ? 0 : key.hashCode();
        int m = ((h >>> 16) ^ seed) * 0x85EBCA6B;
        m ^= m >>> 13;
        m *= 0xC2B2AE35;
        return h ^ (m >>> 16);
    }

    private Node<K,V> find(Object key) {
        return find(key, hash(key));
    }

    private Node<K,V> find(Object key, int h) {
        Node<K,V>[][] t = table;
        if (t == null) {
            return null;
        }
        if (oldTable != null) {
            int i = h & (oldLength - 1);
            if (i >= migrated) {
                // not moved yet: the node is here or nowhere
                return findIn(bucket(oldTable, i), key, h);
            }
        }
        return findIn(bucket(t, h & (tableLength - 1)), key, h);
    }

    /**
     * Finds the key's node and takes it out of its bucket in the same walk
     * (find, then removeFromTable, walked the bucket twice: about 10 ns of
     * a 75 ns remove at 20,480 entries). The list is left to the caller.
     *
     * @return the node, or null if the key has none
     */
    private Node<K,V> takeFromTable(Object key) {
        Node<K,V>[][] t = table;
        if (t == null) {
            return null;
        }
        int h = hash(key);
        int i;
        if (oldTable != null && (i = h & (oldLength - 1)) >= migrated) {
            t = oldTable;
        } else {
            i = h & (tableLength - 1);
        }
        Node<K,V>[] s = t[i >>> SEGMENT_SHIFT];
        if (s == null) {
            return null;
        }
        int j = i & (SEGMENT - 1);
        Node<K,V> p = s[j];
        if (p instanceof TreeBin<K,V> bin) {
            Node<K,V> n = bin.find(key, h);
            if (n != null) {
                bin.remove(n);
                s[j] = bin.compact();
            }
            return n;
        }
        for (Node<K,V> prev = null; p != null; prev = p, p = p.chain()) {
            Object k;
            if (p.hash() == h && ((k = p.key()) == key
                    || (key != null && key.equals(k)))) {
                if (prev == null) {
                    s[j] = p.chain();
                } else {
                    prev.chain(p.chain());
                }
                return p;
            }
        }
        return null;
    }

    private static <K,V> Node<K,V> findIn(Node<K,V> n, Object key, int h) {
        if (n instanceof TreeBin<K,V> bin) {
            return bin.find(key, h);
        }
        for (; n != null; n = n.chain()) {
            Object k;
            if (n.hash() == h && ((k = n.key()) == key
                    || (key != null && key.equals(k)))) {
                return n;
            }
        }
        return null;
    }

    /** Adds a new node to the table and at the tail of the list. */
    private void insert(Node<K,V> n) {
        if (table == null) {
            tableLength = MIN_TABLE;
            table = newTable(MIN_TABLE);
        } else if (oldTable == null && count >= tableLength / 4 * 3
                && tableLength < MAX_TABLE) {
            // grow; the buckets move a few at a time (see migrate), and the
            // new table's segments are allocated when first written
            oldTable = table;
            oldLength = tableLength;
            tableLength *= 2;
            table = newTable(tableLength);
            migrated = 0;
        }
        if (oldTable != null && (n.hash() & (oldLength - 1)) >= migrated) {
            // its old bucket has not moved yet: join it there, so that the
            // new table's buckets are empty until their old bucket moves
            addToBucket(oldTable, oldLength, n);
        } else {
            addToBucket(table, tableLength, n);
        }
        append(n);
        count++;
        while (maxSize > 0 && count > maxSize) {
            examined++;
            unlink(head);
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

    @SuppressWarnings("unchecked")
    private void setBucket(Node<K,V>[][] t, int length, int i, Node<K,V> n) {
        Node<K,V>[] s = t[i >>> SEGMENT_SHIFT];
        if (s == null) {
            // at most SEGMENT references to allocate and zero
            examined++;
            s = (Node<K,V>[]) new Node<?,?>[Math.min(length, SEGMENT)];
            t[i >>> SEGMENT_SHIFT] = s;
        }
        s[i & (SEGMENT - 1)] = n;
    }

    /** Links a node into its bucket of table {@code t}. */
    private void addToBucket(Node<K,V>[][] t, int length, Node<K,V> n) {
        int i = n.hash() & (length - 1);
        Node<K,V> first = bucket(t, i);
        if (first instanceof TreeBin<K,V> bin) {
            bin.add(n);
            return;
        }
        n.chain(first);
        setBucket(t, length, i, n);
        if (first != null && chainReaches(n, TREEIFY)) {
            examined += TREEIFY;
            setBucket(t, length, i, TreeBin.of(n));
        }
    }

    private static boolean chainReaches(Node<?,?> n, int length) {
        for (; n != null; n = n.chain()) {
            if (--length == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Moves up to {@code budget} buckets of the old table into the new one.
     * A table of L buckets grows at 3L/4 nodes, and the next growth needs
     * 3L/4 more puts; every put moves {@code STEP} buckets, so L/STEP puts
     * finish a migration long before the next one could start. A bucket of
     * a chain moves in fewer than TREEIFY steps; a TreeBin moves whole or
     * gives up its smaller half (see TreeBin.split).
     */
    private void migrate(int budget) {
        Node<K,V>[][] old = oldTable;
        while (budget-- > 0 && migrated < oldLength) {
            examined++;
            int i = migrated++;
            Node<K,V> n = bucket(old, i);
            if (n != null) {
                old[i >>> SEGMENT_SHIFT][i & (SEGMENT - 1)] = null;
                if (n instanceof TreeBin<K,V> bin) {
                    examined += bin.split(this, i, oldLength);
                } else {
                    while (n != null) {
                        examined++;
                        Node<K,V> next = n.chain();
                        addToBucket(table, tableLength, n);
                        n = next;
                    }
                }
            }
            if ((migrated & (SEGMENT - 1)) == 0) {
                old[i >>> SEGMENT_SHIFT] = null;    // free it early
            }
        }
        if (migrated == oldLength) {
            oldTable = null;
            oldLength = 0;
            migrated = 0;
        }
    }

    /** Puts a bin, or a chain, into bucket {@code i} of the new table. */
    void placeBin(int i, Node<K,V> bin) {
        setBucket(table, tableLength, i, bin);
    }

    private void removeFromTable(Node<K,V> n) {
        boolean found;
        int i;
        if (oldTable != null && (i = n.hash() & (oldLength - 1)) >= migrated) {
            found = unchain(oldTable, i, n);
        } else {
            found = unchain(table, n.hash() & (tableLength - 1), n);
        }
        if (!found) {
            throw new IllegalStateException("node not in the table");
        }
    }

    private static <K,V> boolean unchain(Node<K,V>[][] t, int i, Node<K,V> n) {
        Node<K,V> p = bucket(t, i);
        if (p == null) {
            return false;
        }
        Node<K,V>[] s = t[i >>> SEGMENT_SHIFT];
        int j = i & (SEGMENT - 1);
        if (p instanceof TreeBin<K,V> bin) {
            if (!bin.remove(n)) {
                return false;
            }
            s[j] = bin.compact();
            return true;
        }
        if (p == n) {
            s[j] = n.chain();
            return true;
        }
        for (; p != null; p = p.chain()) {
            if (p.chain() == n) {
                p.chain(n.chain());
                return true;
            }
        }
        return false;
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

    private void moveToTail(Node<K,V> n, long now) {
        detach(n);
        n.time(now);
        append(n);
    }

    /** Removes a node from the cache and drops its key and value. */
    private void unlink(Node<K,V> n) {
        removeFromTable(n);
        release(n);
    }

    /**
     * Removes a node already out of the table from the list, and drops
     * its key and value.
     */
    private void release(Node<K,V> n) {
        detach(n);
        count--;
        Tickets<K,V> tickets = n.tickets();
        if (tickets != null) {
            tickets.dropAll();
        }
        n.dispose();
    }

    // ---- ticket queues

    /**
     * Drops the tickets put at or before the ticket floor, if the floor
     * changed since the queue was last checked. A queue is in insertion
     * order, so they are a prefix of it. Every ticket operation calls this
     * first: afterwards, {@link #expired} with the node floor (which only
     * covers nodes) and the lifetime judges each ticket rightly.
     */
    private void normalize(Tickets<K,V> tickets) {
        if (tickets.gen != floorGen) {
            Ticket<K,V> t;
            while (ticketFloorSet && (t = tickets.peekFirst()) != null
                    && t.time - ticketFloor <= 0) {
                examined++;
                tickets.removeFirst().dispose();
            }
            if (ticketRenewSet) {
                for (Ticket<K,V> u : tickets) {
                    if (u.time - ticketRenew >= 0) {
                        break;
                    }
                    examined++;
                    u.time = ticketRenew;
                }
            }
            tickets.gen = floorGen;
        }
    }

    private void addTicket(Node<K,V> owner, Tickets<K,V> tickets, V value,
            long now) {
        normalize(tickets);
        if (tickets.size() >= maxQueueSize) {
            tickets.removeFirst().dispose();
        }
        tickets.addLast(new Ticket<>(owner, value, now, soft ? queue : null));
    }

    /** Removes and returns the oldest live ticket's value, or null. */
    private V takeTicket(Tickets<K,V> tickets, long now) {
        normalize(tickets);
        while (!tickets.isEmpty()) {
            examined++;
            Ticket<K,V> t = tickets.removeFirst();
            V v = expired(t.time, now) ? null : t.value();
            t.dispose();
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** Returns the oldest live ticket's value without taking it. */
    private V peekTicket(Tickets<K,V> tickets, long now) {
        normalize(tickets);
        for (Ticket<K,V> t : tickets) {
            V v = expired(t.time, now) ? null : t.value();
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    // ---- nodes

    /**
     * A cache entry: a hash table node and a list node in one. Two classes
     * implement it, so that a hard entry does not pay for a reference
     * object and a soft one needs no second object.
     */
    interface Node<K,V> {
        int hash();
        K key();
        /** The value; null if a soft value was cleared. */
        V value();
        /** The queued values if this key has a queue, else null. */
        Tickets<K,V> tickets();
        Node<K,V> chain();              // next in the hash bucket
        void chain(Node<K,V> n);
        Node<K,V> before();             // older in the list
        void before(Node<K,V> n);
        Node<K,V> after();              // newer in the list
        void after(Node<K,V> n);
        long time();                    // when put, from the cache's clock
        void time(long t);
        /** Drops key and value so a removed node holds on to nothing. */
        void dispose();
    }

    /**
     * A bucket whose keys collide: a red-black tree (TreeMap) of groups, so
     * that finding a key costs O(log m) comparisons instead of m calls of
     * {@code equals}. Keys are ordered by hash, then by kind and contents
     * where the cache knows an order that agrees with {@code equals}:
     * {@code String}s by {@code compareTo}, {@link Cache.EqualByteArray}s
     * (and subclasses, whose equal instances have equal contents by that
     * class's contract) by their bytes. Nodes that compare equal form a
     * group, linked by {@code chain()}, whose first node is the map key;
     * a group holds more than one node only for keys of other classes with
     * the same hashCode, which are searched one by one (as
     * {@code java.util.HashMap} does for keys that are not comparable).
     *
     * <p>Order is by the bit-reversed hash, so that the nodes that move to
     * the upper bucket when the table doubles are a suffix of the tree
     * (see {@link #split}).
     *
     * <p>Only {@link #hash}-free tree methods are used: the bucket's code
     * checks for a TreeBin before it touches the chain, so the Node
     * methods of a TreeBin are never called.
     */
    static final class TreeBin<K,V> implements Node<K,V> {
        private final TreeMap<Node<K,V>, Node<K,V>> groups =
                new TreeMap<>(TreeBin::order);

        static <K,V> TreeBin<K,V> of(Node<K,V> chain) {
            TreeBin<K,V> bin = new TreeBin<>();
            while (chain != null) {
                Node<K,V> next = chain.chain();
                bin.add(chain);
                chain = next;
            }
            return bin;
        }

        private static int order(Node<?,?> a, Node<?,?> b) {
            int c = Integer.compareUnsigned(Integer.reverse(a.hash()),
                    Integer.reverse(b.hash()));
            return c != 0 ? c : compareKeys(a.key(), b.key());
        }

        private static int kind(Object k) {
            return k == null ? 0
                    : k instanceof Cache.EqualByteArray ? 1
                    : k instanceof String ? 2
                    : 3;
        }

        private static int compareKeys(Object x, Object y) {
            int kx = kind(x);
            int ky = kind(y);
            if (kx != ky) {
                return kx < ky ? -1 : 1;
            }
            if (kx == 1) {
                return Arrays.compare(((Cache.EqualByteArray) x).b,
                        ((Cache.EqualByteArray) y).b);
            }
            if (kx == 2) {
                return ((String) x).compareTo((String) y);
            }
            return 0;           // null, or no known order: one group
        }

        /**
         * What the bucket of this bin should hold: null if the bin is
         * empty, its nodes as a chain if it has at most UNTREEIFY of them
         * (counted no further than that), else the bin itself.
         */
        Node<K,V> compact() {
            if (groups.size() > UNTREEIFY) {
                return this;
            }
            int left = UNTREEIFY;
            for (Node<K,V> g : groups.keySet()) {
                for (Node<K,V> n = g; n != null; n = n.chain()) {
                    if (--left < 0) {
                        return this;    // a group of equal hashes
                    }
                }
            }
            Node<K,V> chain = null;
            for (Node<K,V> g : groups.descendingKeySet()) {
                Node<K,V> last = g;
                while (last.chain() != null) {
                    last = last.chain();
                }
                last.chain(chain);
                chain = g;
            }
            return chain;
        }

        @SuppressWarnings("unchecked")
        Node<K,V> find(Object key, int h) {
            Node<K,V> g = groups.get(new HardNode<>((K) key, h, null, 0L));
            for (; g != null; g = g.chain()) {
                Object k = g.key();
                if (k == key || (key != null && key.equals(k))) {
                    return g;
                }
            }
            return null;
        }

        void add(Node<K,V> n) {
            Node<K,V> g = groups.putIfAbsent(n, n);
            if (g == null) {
                n.chain(null);
            } else {
                n.chain(g.chain());
                g.chain(n);
            }
        }

        boolean remove(Node<K,V> n) {
            Node<K,V> g = groups.get(n);
            if (g == null) {
                return false;
            }
            if (g == n) {
                // the map keeps its key object on put: remove, then re-add
                groups.remove(n);
                Node<K,V> next = n.chain();
                if (next != null) {
                    groups.put(next, next);
                }
                return true;
            }
            for (Node<K,V> p = g; p.chain() != null; p = p.chain()) {
                if (p.chain() == n) {
                    p.chain(n.chain());
                    return true;
                }
            }
            return false;
        }

        /**
         * Moves this bin, old bucket {@code i} of a table of
         * {@code oldLength} buckets, to buckets {@code i} and
         * {@code i + oldLength} of the doubled table (both still empty).
         * The nodes for the upper bucket are a suffix of the tree: the
         * smaller side moves to a new bin, so the cost is proportional to
         * the smaller side (O(1) when all the keys have one hash, as in a
         * flood of colliding keys) plus O(log m). A side left with at
         * most UNTREEIFY nodes goes to its bucket as a chain.
         *
         * @return the work done, for the {@code examined} hook
         */
        int split(MemoryCache<K,V> cache, int i, int oldLength) {
            Node<K,V> bound = new HardNode<>(null, i | oldLength, null, 0L);
            NavigableMap<Node<K,V>, Node<K,V>> lo =
                    groups.headMap(bound, false);
            NavigableMap<Node<K,V>, Node<K,V>> hi =
                    groups.tailMap(bound, true);
            Iterator<Node<K,V>> a = lo.keySet().iterator();
            Iterator<Node<K,V>> b = hi.keySet().iterator();
            int work = 1;
            while (a.hasNext() && b.hasNext()) {
                a.next();
                b.next();
                work++;
            }
            boolean loSmaller = !a.hasNext();
            NavigableMap<Node<K,V>, Node<K,V>> small = loSmaller ? lo : hi;
            TreeBin<K,V> other = new TreeBin<>();
            for (Iterator<Map.Entry<Node<K,V>, Node<K,V>>> it =
                    small.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Node<K,V>, Node<K,V>> e = it.next();
                other.groups.put(e.getKey(), e.getValue());
                it.remove();
                work++;
            }
            int upper = i + oldLength;
            Node<K,V> kept = compact();
            if (kept != null) {
                cache.placeBin(loSmaller ? upper : i, kept);
            }
            Node<K,V> moved = other.compact();
            if (moved != null) {
                cache.placeBin(loSmaller ? i : upper, moved);
            }
            return work + 2 * UNTREEIFY;
        }

        private static UnsupportedOperationException notANode() {
            return new UnsupportedOperationException("a bin, not a node");
        }

        @Override public int hash() { throw notANode(); }
        @Override public K key() { throw notANode(); }
        @Override public V value() { throw notANode(); }
        @Override public Tickets<K,V> tickets() { throw notANode(); }
        @Override public Node<K,V> chain() { throw notANode(); }
        @Override public void chain(Node<K,V> n) { throw notANode(); }
        @Override public Node<K,V> before() { throw notANode(); }
        @Override public void before(Node<K,V> n) { throw notANode(); }
        @Override public Node<K,V> after() { throw notANode(); }
        @Override public void after(Node<K,V> n) { throw notANode(); }
        @Override public long time() { throw notANode(); }
        @Override public void time(long t) { throw notANode(); }
        @Override public void dispose() { throw notANode(); }
    }

    /** An entry that holds its value, or the queue of a queued key. */
    static final class HardNode<K,V> implements Node<K,V> {
        private final int hash;
        private K key;
        private Object value;           // V, or Tickets<K,V>
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
    static final class SoftNode<K,V> extends SoftReference<V>
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

        /** Whether the node left the cache (the GC may queue it later). */
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

    /** One value queued under a key; soft in a soft cache. */
    static final class Ticket<K,V> extends SoftReference<V> {
        long time;                      // raised by normalize (renew)
        Node<K,V> owner;                // null once handed out or dropped
        private Object hard;            // the value in a hard cache

        Ticket(Node<K,V> owner, V value, long time, ReferenceQueue<V> queue) {
            super(queue == null ? null : value, queue);
            this.owner = owner;
            this.time = time;
            this.hard = queue == null ? value : null;
        }

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

    /** The values queued under a key, oldest first. */
    static final class Tickets<K,V> implements Iterable<Ticket<K,V>> {
        // Grows with the tickets actually queued: maxQueueSize may be
        // Integer.MAX_VALUE, so it must never size an allocation.
        private final ArrayDeque<Ticket<K,V>> deque = new ArrayDeque<>();
        // The cache's floorGen when the tickets were last checked against
        // its ticketFloor (see MemoryCache.normalize).
        long gen;

        Tickets(long gen) {
            this.gen = gen;
        }

        /** The oldest ticket, or null. */
        Ticket<K,V> peekFirst() {
            return deque.peekFirst();
        }

        int size() {
            return deque.size();
        }

        boolean isEmpty() {
            return deque.isEmpty();
        }

        void addLast(Ticket<K,V> t) {
            deque.addLast(t);
        }

        Ticket<K,V> removeFirst() {
            return deque.removeFirst();
        }

        @Override
        public Iterator<Ticket<K,V>> iterator() {
            return deque.iterator();
        }

        /** Drops the tickets whose values the GC cleared. */
        void removeCleared(MemoryCache<K,V> cache) {
            deque.removeIf(t -> {
                cache.examined++;
                if (t.value() == null) {
                    t.dispose();
                    return true;
                }
                return false;
            });
        }

        void dropAll() {
            for (Ticket<K,V> t : deque) {
                t.dispose();
            }
            deque.clear();
        }
    }
}
