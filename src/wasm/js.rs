//! Reflection on JavaScript values for the test doubles. Every operation that can run user
//! code (getters, proxy traps, `Symbol.toStringTag`, constructors) is imported with `catch`,
//! so a user exception comes back as `Err` and unwinds through Rust normally: no JavaScript
//! exception ever crosses a Rust frame, and no borrow of an engine object is left behind.
//!
//! Shared by the three modules; each uses the helpers its bindings need.
#![cfg_attr(not(all(feature = "engine", feature = "doubles")), allow(dead_code))]

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Reflect, js_name = get, catch)]
    fn reflect_get(target: &JsValue, key: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = has, catch)]
    fn reflect_has(target: &JsValue, key: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = getOwnPropertyDescriptor, catch)]
    fn reflect_own_descriptor(target: &JsValue, key: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = getPrototypeOf, catch)]
    fn reflect_prototype_of(target: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = defineProperty, catch)]
    fn reflect_define(
        target: &JsValue,
        key: &JsValue,
        descriptor: &JsValue,
    ) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = construct, catch)]
    fn reflect_construct(target: &JsValue, args: &Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = apply, catch)]
    fn reflect_apply(target: &JsValue, this: &JsValue, args: &Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(target: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = freeze, catch)]
    fn object_freeze(target: &JsValue) -> Result<JsValue, JsValue>;
    /// The global `String(value)` (runs `toString`, which may throw; a symbol gives `Symbol(…)`).
    #[wasm_bindgen(js_name = String, catch)]
    fn global_string(value: &JsValue) -> Result<js_sys::JsString, JsValue>;
}

/// `String(value)`, for messages built from user-supplied values (a symbol gives
/// `Symbol(…)`); the host's exception (a throwing `toString`) comes back as `Err`.
pub(crate) fn string(value: &JsValue) -> Js<String> {
    match value.as_string() {
        Some(s) => Ok(s),
        None => global_string(value).map(String::from),
    }
}

/// A short description of a non-string value's kind for a message (`a number (5)`,
/// `undefined`), read without running the value's own code.
pub(crate) fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        "undefined".into()
    } else if value.is_null() {
        "null".into()
    } else if let Some(n) = value.as_f64() {
        format!("a number ({n})")
    } else if let Some(b) = value.as_bool() {
        format!("a boolean ({b})")
    } else if value.is_string() {
        "a string".into()
    } else if value.is_bigint() {
        "a bigint".into()
    } else if value.is_symbol() {
        "a symbol".into()
    } else if value.is_function() {
        "a function".into()
    } else if array_is_array(value).unwrap_or(false) {
        "an array".into()
    } else {
        "an object".into()
    }
}

pub(crate) type Js<T> = Result<T, JsValue>;

/// A property name the engine spells out (a literal): interned, so naming it again is a lookup
/// in wasm-bindgen's cache instead of decoding the string out of linear memory. Names that come
/// from data must not pass here (the cache would grow without bound); `'static` sees to that.
pub(crate) fn key(k: &'static str) -> JsValue {
    JsValue::from_str(wasm_bindgen::intern(k))
}

/// `typeof v === 'object' && v !== null`.
pub(crate) fn is_object(v: &JsValue) -> bool {
    v.is_object()
}

/// `target[key]` (runs getters; `undefined` for primitives other than strings, like the
/// optional chaining the reference uses).
pub(crate) fn get(target: &JsValue, k: &'static str) -> Js<JsValue> {
    get_key(target, &key(k))
}

pub(crate) fn get_key(target: &JsValue, k: &JsValue) -> Js<JsValue> {
    if is_object(target) || target.is_function() {
        reflect_get(target, k)
    } else {
        Ok(JsValue::UNDEFINED)
    }
}

/// `key in target` for an object.
pub(crate) fn has(target: &JsValue, k: &'static str) -> Js<bool> {
    reflect_has(target, &key(k))
}

pub(crate) fn is_array(v: &JsValue) -> Js<bool> {
    array_is_array(v)
}

pub(crate) fn keys(v: &JsValue) -> Js<Array> {
    object_keys(v)
}

pub(crate) fn own_descriptor(v: &JsValue, k: &JsValue) -> Js<JsValue> {
    reflect_own_descriptor(v, k)
}

pub(crate) fn prototype_of(v: &JsValue) -> Js<JsValue> {
    reflect_prototype_of(v)
}

pub(crate) fn construct(ctor: &JsValue, args: &[&JsValue]) -> Js<JsValue> {
    let list = Array::new();
    for a in args {
        list.push(a);
    }
    reflect_construct(ctor, &list)
}

pub(crate) fn call(f: &JsValue, this: &JsValue, args: &[&JsValue]) -> Js<JsValue> {
    let list = Array::new();
    for a in args {
        list.push(a);
    }
    reflect_apply(f, this, &list)
}

/// A new plain object.
pub(crate) fn object() -> JsValue {
    Object::new().into()
}

/// Defines `key` as an ordinary data property (configurable, enumerable, writable), as
/// object literals and the snapshot rule do; works for `__proto__` and symbol keys too.
pub(crate) fn define(target: &JsValue, k: &JsValue, value: &JsValue) -> Js<()> {
    reflect_define(target, k, &data_descriptor(value)).map(|_| ())
}

fn data_descriptor(value: &JsValue) -> JsValue {
    let d = Object::new();
    let set = |name: &'static str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&d, &key(name), v);
    };
    set("value", value);
    set("writable", &JsValue::TRUE);
    set("enumerable", &JsValue::TRUE);
    set("configurable", &JsValue::TRUE);
    d.into()
}

/// Sets a property on an object the engine created (no user code can run).
pub(crate) fn set(target: &JsValue, k: &'static str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &key(k), value);
}

pub(crate) fn freeze(v: &JsValue) -> Js<JsValue> {
    object_freeze(v)
}

/// `Object` and `Object.prototype`, read once.
pub(crate) struct Realm {
    pub object_constructor: JsValue,
    pub object_prototype: JsValue,
}

thread_local! {
    static REALM: Realm = {
        let global = js_sys::global();
        let object = reflect_get(&global, &key("Object")).unwrap_or(JsValue::UNDEFINED);
        let object_prototype = reflect_get(&object, &key("prototype")).unwrap_or(JsValue::UNDEFINED);
        Realm { object_constructor: object, object_prototype }
    };
}

pub(crate) fn with_realm<T>(f: impl FnOnce(&Realm) -> T) -> T {
    REALM.with(f)
}

/// A non-null object with a callable `Symbol.iterator` or `Symbol.asyncIterator`.
pub(crate) fn is_iterable(v: &JsValue) -> Js<bool> {
    if !is_object(v) {
        return Ok(false);
    }
    Ok(
        get_key(v, &js_sys::Symbol::iterator().into())?.is_function()
            || get_key(v, &js_sys::Symbol::async_iterator().into())?.is_function(),
    )
}

/// `JSON`-free number for fields.
pub(crate) fn num(n: usize) -> JsValue {
    JsValue::from_f64(n as f64)
}

/// `value instanceof ctor`, by walking the prototype chain.
pub(crate) fn instance_of(value: &JsValue, ctor: &JsValue) -> Js<bool> {
    if !is_object(value) && !value.is_function() {
        return Ok(false);
    }
    let prototype = get(ctor, "prototype")?;
    let mut current = prototype_of(value)?;
    while !current.is_null() {
        if current == prototype {
            return Ok(true);
        }
        current = prototype_of(&current)?;
    }
    Ok(false)
}

/// [`string`], with a throwing `toString` giving `""`.
pub(crate) fn string_of(v: &JsValue) -> String {
    string(v).unwrap_or_default()
}
