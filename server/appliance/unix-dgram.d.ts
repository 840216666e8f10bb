// unix-dgram ships no types; server/appliance/notify.ts declares the slice it uses (DatagramSocket).
declare module 'unix-dgram';
