#!/usr/bin/env python3
"""Generate the example registration sheets (fictional people only).

    python3 examples/generate_registrations.py

writes

    examples/jinhua-2018/registrations.csv    UTF-8 without BOM, LF, comma-separated
    examples/dongguan-2018/registrations.csv  GBK, CRLF, comma-separated (Excel "CSV")

Standard library only and seeded, so the files are reproduced byte for byte. Every
person is invented: names are drawn from common characters, ID numbers carry a valid
GB 11643-1999 checksum and agree with the birth date and gender written beside them, and
phone numbers start with 100, a prefix no Chinese mobile network uses.

The sheets follow the two regulations in /work/shared/seeds (Jinhua 2018, Dongguan 2018)
and look like real exports: Chinese headers, mixed date and grade spellings, a stray
space in a name, a lower-case x in an ID number, a full-width phone number.
"""

import csv
import datetime as dt
import io
import os
import random

WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
CHECK = "10X98765432"

SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余"
    "于杜叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金贾夏方邹熊孟秦邱侯江尹薛段雷龙黎史陶"
    "贺毛顾龚邵万钱严赖洪武莫孔楼应傅施俞厉"
)
MALE = (
    "伟强磊军勇杰涛斌超明刚平辉鹏华飞鑫波宇浩凯健俊帆旭宁龙林阳建国峰晨东海志文博轩睿"
    "泽航锋彬亮成诚晖"
)
FEMALE = "芳娜敏静丽艳娟霞燕玲婷雪琳倩颖欣怡萱涵梦佳琪雨悦诗思彤妍洁蕾薇"
MALE2 = ["浩然", "子豪", "宇航", "一鸣", "家豪", "俊杰", "天佑", "思远", "子轩", "博文", "建华", "国强", "志明", "永康"]
FEMALE2 = ["子涵", "欣怡", "梓萱", "语桐", "可馨", "雨桐", "诗涵", "思琪", "佳怡", "雅婷", "晓燕", "丽华"]


def id_number(rng, region, birth, male):
    """A valid 18-digit number for a region code, birth date and gender."""
    seq = rng.randrange(0, 100) * 10 + rng.choice([1, 3, 5, 7, 9] if male else [0, 2, 4, 6, 8])
    first17 = "%s%s%03d" % (region, birth.strftime("%Y%m%d"), seq)
    total = sum(int(d) * w for d, w in zip(first17, WEIGHTS))
    return first17 + CHECK[total % 11]


def person_name(rng, male, taken):
    while True:
        given = rng.choice(MALE if male else FEMALE)
        if rng.random() < 0.55:
            given = rng.choice(MALE2 if male else FEMALE2) if rng.random() < 0.5 else given + rng.choice(MALE if male else FEMALE)
        name = rng.choice(SURNAMES) + given
        if name not in taken:
            taken.add(name)
            return name


def birth_between(rng, first, last):
    return first + dt.timedelta(days=rng.randrange((last - first).days + 1))


def grade_of(birth, school_year):
    """School grade in the autumn of `school_year` (children born by 31 August start at 6)."""
    cohort = birth.year if birth.month < 9 else birth.year + 1
    return school_year - cohort - 5


def birth_for_grade(rng, grade, school_year):
    cohort = school_year - 5 - grade
    return birth_between(rng, dt.date(cohort - 1, 9, 1), dt.date(cohort, 8, 31))


def date_text(rng, d):
    style = rng.random()
    if style < 0.7:
        return d.isoformat()
    if style < 0.85:
        return "%d/%d/%d" % (d.year, d.month, d.day)
    if style < 0.95:
        return "%d年%d月%d日" % (d.year, d.month, d.day)
    return d.strftime("%Y%m%d")


CN_DIGITS = "一二三四五六七八九"


def grade_text(rng, grade):
    style = rng.random()
    if grade <= 6:
        if style < 0.6:
            return CN_DIGITS[grade - 1] + "年级"
        if style < 0.8:
            return "%d年级" % grade
        return str(grade)
    prefix, n = ("初", grade - 6) if grade <= 9 else ("高", grade - 9)
    if style < 0.8:
        return prefix + CN_DIGITS[n - 1]
    return str(grade)


def phone(rng):
    return "100" + "".join(rng.choice("0123456789") for _ in range(8))


def jinhua(rng):
    start = dt.date(2018, 10, 26)
    clubs = [
        ("婺城区象棋协会", "330702"),
        ("金东区棋类协会", "330703"),
        ("兰溪市象棋协会", "330781"),
        ("义乌市棋类协会", "330782"),
        ("东阳市象棋协会", "330783"),
        ("永康市棋类协会", "330784"),
        ("浦江县象棋协会", "330726"),
        ("武义县象棋协会", "330723"),
        ("磐安县棋协", "330727"),
    ]
    schools = [
        ("浦江县丰安棋校", "330726"),
        ("金华市少儿象棋培训中心", "330702"),
        ("义乌市棋院", "330782"),
        ("东阳市少儿棋校", "330783"),
        ("兰溪市象棋协会", "330781"),
    ]
    taken = set()
    rows = []

    def add(group, unit, region, male, birth, grade=None, disabled=False):
        rows.append(
            {
                "姓名": person_name(rng, male, taken),
                "性别": "男" if male else "女",
                "单位": unit,
                "组别": group,
                "出生日期": date_text(rng, birth),
                "身份证号": id_number(rng, region, birth, male),
                "年级": grade_text(rng, grade) if grade else "",
                "残疾": "是" if disabled else "",
                "电话": phone(rng),
            }
        )

    # 成人组: 70 players; every club sends at least four, so at least six units can
    # field a team of three (成人团体取同单位最好的前三名).
    adult_units = [clubs[i % len(clubs)] for i in range(70)]
    for unit, region in adult_units:
        male = rng.random() < 0.9
        add("成人组", unit, region, male, birth_between(rng, dt.date(1950, 1, 1), dt.date(2000, 10, 1)))
    # 残疾人组: plays in 成人组, ranked separately, must hold a certificate.
    for _ in range(8):
        unit, region = rng.choice(clubs)
        add("残疾人组", unit, region, rng.random() < 0.75,
            birth_between(rng, dt.date(1955, 1, 1), dt.date(1995, 12, 31)), disabled=True)
    # 青少年组: under 16 on 2018-10-26.
    for _ in range(24):
        unit, region = rng.choice(schools + clubs)
        birth = birth_between(rng, dt.date(2002, 11, 1), dt.date(2007, 8, 31))
        add("青少年组", unit, region, rng.random() < 0.8, birth, grade=grade_of(birth, 2018))
    # 少儿精英组: under 14, boys and girls ranked separately.
    for i in range(28):
        unit, region = rng.choice(schools)
        birth = birth_between(rng, dt.date(2005, 1, 1), dt.date(2010, 8, 31))
        add("少儿精英组", unit, region, i % 3 != 0, birth, grade=grade_of(birth, 2018))
    # 少儿精英乙组: first and second graders.
    for i in range(20):
        unit, region = rng.choice(schools)
        grade = 1 + i % 2
        add("少儿精英乙组", unit, region, i % 4 != 0, birth_for_grade(rng, grade, 2018), grade=grade)

    rng.shuffle(rows)
    # Real-sheet blemishes the importer must clean up.
    rows[3]["姓名"] = rows[3]["姓名"][0] + " " + rows[3]["姓名"][1:]
    rows[10]["电话"] = "".join(chr(ord(c) + 0xFEE0) for c in rows[10]["电话"])
    with_x = [r for r in rows if r["身份证号"].endswith("X")]
    if with_x:
        with_x[0]["身份证号"] = with_x[0]["身份证号"][:-1] + "x"
    header = ["序号", "姓名", "性别", "单位", "组别", "出生日期", "身份证号", "年级", "残疾", "电话"]
    return header, rows


def dongguan(rng):
    clubs = ["东莞市棋类协会", "东莞市棋类协会石龙分会", "莞城象棋俱乐部", "南城棋院", "虎门镇象棋协会", "常平镇棋协"]
    middle = ["石龙中学", "东莞中学", "东城中学", "石碣中学", "虎门中学"]
    primary = ["石龙镇实验小学", "石龙镇中心小学", "东城小学", "南城阳光小学", "莞城中心小学", "南城棋院"]
    region = "441900"
    taken = set()
    rows = []

    def add(group, unit, male, birth, grade=None, local=None, note=""):
        rows.append(
            {
                "姓名": person_name(rng, male, taken),
                "性别": "男" if male else "女",
                "单位": unit,
                "组别": group,
                "身份证号": id_number(rng, region, birth, male),
                "年级": grade_text(rng, grade) if grade else "",
                "本地": local if local is not None else "",
                "联系电话": phone(rng),
                "备注": note,
            }
        )

    # 棋王组: open to all ages; six locals register directly in it (本地=是).
    for i in range(34):
        local = "是" if i < 6 else ("否" if i % 3 == 0 else "")
        add("棋王组", rng.choice(clubs), rng.random() < 0.92,
            birth_between(rng, dt.date(1952, 1, 1), dt.date(2000, 6, 30)), local=local)
    # 本地组: plays inside 棋王组, ranked on its own list (本地成人组).
    for _ in range(10):
        add("本地组", rng.choice(clubs), rng.random() < 0.9,
            birth_between(rng, dt.date(1955, 1, 1), dt.date(1998, 12, 31)), local="是")
    # 少年男子/女子棋王组: students, grades 7-12.
    for _ in range(20):
        grade = rng.randint(7, 12)
        add("少年男子棋王组", rng.choice(middle), True, birth_for_grade(rng, grade, 2018), grade=grade)
    for _ in range(12):
        grade = rng.randint(7, 12)
        add("少年女子棋王组", rng.choice(middle), False, birth_for_grade(rng, grade, 2018), grade=grade)
    # 儿童女子棋王组: deliberately short of the 10-player minimum (Dongguan 九).
    for _ in range(7):
        grade = rng.randint(1, 6)
        add("儿童女子棋王组", rng.choice(primary), False, birth_for_grade(rng, grade, 2018), grade=grade)
    # 儿童棋王A组 (grades 4-6) and B组 (grades 1-3), boys and girls together.
    for _ in range(20):
        grade = rng.randint(4, 6)
        add("儿童棋王A组", rng.choice(primary), rng.random() < 0.75, birth_for_grade(rng, grade, 2018), grade=grade)
    for i in range(20):
        grade = rng.randint(1, 3)
        note = "家长陪同" if i % 5 == 0 else ""
        add("儿童棋王B组", rng.choice(primary), rng.random() < 0.75,
            birth_for_grade(rng, grade, 2018), grade=grade, note=note)
    rng.shuffle(rows)
    header = ["序号", "姓名", "性别", "单位", "组别", "身份证号", "年级", "本地", "联系电话", "备注"]
    return header, rows


def render(header, rows, newline):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=newline)
    writer.writerow(header)
    for i, row in enumerate(rows, 1):
        writer.writerow([str(i)] + [row[h] for h in header[1:]])
    return out.getvalue()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    header, rows = jinhua(random.Random(2018_10_26))
    path = os.path.join(here, "jinhua-2018", "registrations.csv")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(render(header, rows, "\n").encode("utf-8"))
    header, rows = dongguan(random.Random(2018_09_22))
    path = os.path.join(here, "dongguan-2018", "registrations.csv")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(render(header, rows, "\r\n").encode("gbk"))


if __name__ == "__main__":
    main()
